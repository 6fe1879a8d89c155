import { jest } from "@jest/globals";

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
