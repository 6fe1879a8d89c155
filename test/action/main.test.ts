import { expect, it, jest } from "@jest/globals";
import { fakeActionsCore } from "../helpers/fake-toolkit.js";
import { examplePayload } from "../helpers/action-runner.js";

/**
 * The entry point only wires: with @actions/core and @actions/github mocked, importing it scores
 * the event's issue with the real scorer factory and reports through the mocked toolkit.
 */

const inputs: Record<string, string> = { comment: "false", scorer: "offline" };
const payload = examplePayload("issues", "opened", (p) => {
  p.issue.title = "Add Stripe checkout";
  p.issue.body = "Let free users upgrade to Pro";
});

const toolkit = fakeActionsCore((name) => inputs[name] ?? "");
jest.unstable_mockModule("@actions/core", () => toolkit.module);
jest.unstable_mockModule("@actions/github", () => ({
  context: { eventName: "issues", payload },
  getOctokit: jest.fn(() => {
    throw new Error("no GitHub call expected with comment: false");
  }),
}));

const core = jest.mocked(await import("@actions/core"));
const github = jest.mocked(await import("@actions/github"));

it("reads the inputs and the event through the toolkit and writes the outputs", async () => {
  await import("../../action/main.js");
  expect(core.setFailed).not.toHaveBeenCalled();
  expect(core.getInput).toHaveBeenCalledWith("fail-on-reject");
  const outputs = Object.fromEntries(core.setOutput.mock.calls);
  expect(Object.keys(outputs).sort()).toEqual([
    "approved",
    "avg-score",
    "evidence",
    "kind",
    "max-score",
    "min-score",
    "report",
  ]);
  const report = JSON.parse(String(outputs.report));
  expect(report.task).toBe("Add Stripe checkout");
  expect(report.description).toBe("Let free users upgrade to Pro");
  expect(core.info).toHaveBeenCalledWith("Scoring issue #1 with the offline scorer.");
  expect(github.getOctokit).not.toHaveBeenCalled();
});
