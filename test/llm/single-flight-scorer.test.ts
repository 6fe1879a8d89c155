import { describe, expect, it } from "@jest/globals";
import { scoreOffline } from "../../src/core/offline/offline-scorer.js";
import type { ScoreOptions, Scorer } from "../../src/core/scorer.js";
import { singleFlightScorer } from "../../src/llm/single-flight-scorer.js";

const TASK = { task: "Add an audit log", description: "" };

/** A scorer that answers only when told to, recording what each call was given. */
function heldScorer() {
  const calls: ScoreOptions[] = [];
  const answers: (() => void)[] = [];
  const scorer: Scorer = {
    name: "held",
    score(input, options = {}) {
      calls.push(options);
      return new Promise((resolve, reject) => {
        answers.push(() => resolve(scoreOffline(input)));
        options.signal?.addEventListener("abort", () => reject(new Error("cancelled")), { once: true });
      });
    },
  };
  return { scorer, calls, answerAll: () => answers.splice(0).forEach((a) => a()) };
}

describe("singleFlightScorer", () => {
  it("keeps the inner scorer's name", () => {
    expect(singleFlightScorer(heldScorer().scorer).name).toBe("held");
  });

  it("identical concurrent requests share one scoring, under the first caller's deadline", async () => {
    const { scorer, calls, answerAll } = heldScorer();
    const shared = singleFlightScorer(scorer);
    const both = Promise.all([
      shared.score(TASK, { timeoutMs: 1234 }),
      shared.score(TASK, { timeoutMs: 99 }),
    ]);
    answerAll();
    const [a, b] = await both;
    expect(calls).toHaveLength(1);
    expect(calls[0]!.timeoutMs).toBe(1234);
    expect(b).toBe(a);
  });

  it("keeps nothing once the scoring is done: the next request scores again", async () => {
    const { scorer, calls, answerAll } = heldScorer();
    const shared = singleFlightScorer(scorer);
    const first = shared.score(TASK);
    answerAll();
    await first;
    const second = shared.score(TASK);
    answerAll();
    await second;
    expect(calls).toHaveLength(2);
  });

  it("a different description is a different task", async () => {
    const { scorer, calls, answerAll } = heldScorer();
    const shared = singleFlightScorer(scorer);
    const both = Promise.all([shared.score(TASK), shared.score({ ...TASK, description: "other" })]);
    answerAll();
    await both;
    expect(calls).toHaveLength(2);
  });

  it("the shared scoring is cancelled only when every caller with a signal has given up", async () => {
    const { scorer, calls } = heldScorer();
    const shared = singleFlightScorer(scorer);
    const a = new AbortController();
    const b = new AbortController();
    const first = shared.score(TASK, { signal: a.signal }).catch((e: Error) => e);
    const second = shared.score(TASK, { signal: b.signal }).catch((e: Error) => e);
    a.abort();
    expect(calls[0]!.signal!.aborted).toBe(false);
    b.abort();
    expect(calls[0]!.signal!.aborted).toBe(true);
    expect(await first).toBeInstanceOf(Error);
    expect(await second).toBeInstanceOf(Error);
  });

  it("a caller without a signal pins the scoring: the others leaving does not cancel it", async () => {
    const { scorer, calls, answerAll } = heldScorer();
    const shared = singleFlightScorer(scorer);
    const leaving = new AbortController();
    const first = shared.score(TASK, { signal: leaving.signal });
    const pinned = shared.score(TASK);
    leaving.abort();
    expect(calls[0]!.signal!.aborted).toBe(false);
    answerAll();
    expect(await pinned).toHaveLength(5);
    expect(await first).toHaveLength(5);
  });

  it("a caller whose signal is already aborted leaves at once", async () => {
    const { scorer, calls } = heldScorer();
    const shared = singleFlightScorer(scorer);
    const gone = new AbortController();
    gone.abort();
    await expect(shared.score(TASK, { signal: gone.signal })).rejects.toThrow("cancelled");
    expect(calls[0]!.signal!.aborted).toBe(true);
  });
});
