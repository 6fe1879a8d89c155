import { afterAll, beforeAll, beforeEach, jest } from "@jest/globals";
import { FakeGitHub } from "./fake-github.js";

/**
 * `@actions/core` as the runner's toolkit would be, for `jest.unstable_mockModule`: inputs come from
 * `input`, and job summaries are collected instead of written to a file.
 */
export function fakeActionsCore(input: (name: string) => string) {
  const summaries: string[] = [];
  const summaryWrite = jest.fn(async () => undefined);
  const module = {
    getInput: jest.fn(input),
    setSecret: jest.fn(),
    setOutput: jest.fn(),
    setFailed: jest.fn(),
    info: jest.fn(),
    notice: jest.fn(),
    warning: jest.fn(),
    debug: jest.fn(),
    summary: {
      addRaw: jest.fn((text: string) => {
        summaries.push(text);
        return { write: summaryWrite };
      }),
    },
  };
  return { module, summaries, summaryWrite };
}

/**
 * The Action's unit tests' set-up, once: a stand-in GitHub on loopback for the file (started before its tests,
 * stopped after), and before each test the mocks cleared, the inputs and summaries emptied, the stand-in reset
 * and, where given, the workflow's token set as the `github-token` input.
 */
export function actionTestBed(options: {
  inputs: Map<string, string>;
  summaries?: string[];
  token?: string;
}): FakeGitHub {
  const github = new FakeGitHub();
  beforeAll(async () => {
    await github.start();
  });
  afterAll(async () => {
    await github.stop();
  });
  beforeEach(() => {
    jest.clearAllMocks();
    options.inputs.clear();
    if (options.summaries) options.summaries.length = 0;
    github.reset();
    if (options.token) options.inputs.set("github-token", options.token);
  });
  return github;
}
