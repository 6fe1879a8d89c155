/**
 * The Action's entry point (bundled into dist/index.js, which action.yml runs): it only wires the
 * real @actions/core, @actions/github and scorer factory into runAction. The step's exit code is
 * set by core.setFailed.
 */
import * as core from "@actions/core";
import { context, getOctokit } from "@actions/github";
import { createScorer } from "../src/llm/create-scorer.js";
import { runAction } from "./run-action.js";

await runAction({
  core,
  context,
  getOctokit: (token) => getOctokit(token),
  createScorer,
  env: process.env,
});
