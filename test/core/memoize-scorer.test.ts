import { describe, expect, it } from "@jest/globals";
import { memoizeScorer } from "../../src/core/memoize-scorer.js";
import { scoreOffline } from "../../src/core/offline/offline-scorer.js";
import type { Scorer } from "../../src/core/scorer.js";

function counting(): Scorer & { calls: number } {
  const s = {
    name: "counting",
    calls: 0,
    async score(input: { task: string; description: string }) {
      s.calls++;
      return scoreOffline(input);
    },
  };
  return s;
}

describe("memoizeScorer", () => {
  it("scores a repeated task once and returns the same verdicts", async () => {
    const inner = counting();
    const memo = memoizeScorer(inner, { maxEntries: 10, maxKeyChars: 1000 });
    const a = await memo.score({ task: "Add dark mode", description: "x" });
    const b = await memo.score({ task: "Add dark mode", description: "x" });
    expect(b).toEqual(a);
    expect(inner.calls).toBe(1);
    await memo.score({ task: "Add dark mode", description: "y" });
    expect(inner.calls).toBe(2);
  });

  it("forgets the least recently used entry and never keeps long inputs", async () => {
    const inner = counting();
    const memo = memoizeScorer(inner, { maxEntries: 2, maxKeyChars: 50 });
    await memo.score({ task: "a", description: "" });
    await memo.score({ task: "b", description: "" });
    await memo.score({ task: "a", description: "" }); // a is now the most recent
    await memo.score({ task: "c", description: "" }); // evicts b
    await memo.score({ task: "a", description: "" });
    expect(inner.calls).toBe(3);
    await memo.score({ task: "b", description: "" });
    expect(inner.calls).toBe(4);
    const long = { task: "long", description: "z".repeat(100) };
    await memo.score(long);
    await memo.score(long);
    expect(inner.calls).toBe(6);
  });

  it("reports its hits as offline cache hits, passing the wrapped scorer's counts through", async () => {
    const inner = { ...counting(), scorerStats: () => ({ modelCalls: 3, cacheHits: { llm: 2 } }) };
    const memo = memoizeScorer(inner, { maxEntries: 10, maxKeyChars: 1000 });
    await memo.score({ task: "Add dark mode", description: "" });
    await memo.score({ task: "Add dark mode", description: "" });
    expect(memo.scorerStats?.()).toEqual({ modelCalls: 3, cacheHits: { llm: 2, offline: 1 } });
  });
});
