import fc from "fast-check";
import { describe, expect, it } from "@jest/globals";
import { memoizeScorer } from "../../src/core/memoize-scorer.js";
import { offlineScorer } from "../../src/core/offline/offline-scorer.js";
import { scoreTask } from "../../src/core/score-task.js";
import { shared } from "../../src/core/shared-json.js";
import { sharedJsonBytes } from "../../src/http/shared-json-bytes.js";

const text = (out: string | Buffer) => (typeof out === "string" ? out : out.toString("utf8"));

describe("sharedJsonBytes", () => {
  it("gives exactly JSON.stringify's text, as UTF-8, for any JSON value, with or without shared parts", () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string(), fc.jsonValue()), fc.boolean(), (value, share) => {
        const expected = JSON.stringify(value);
        if (share)
          for (const v of Object.values(value)) if (v !== null && typeof v === "object") shared(v as object);
        for (let i = 0; i < 3; i++) {
          const out = sharedJsonBytes(value);
          expect(text(out)).toBe(expected);
          if (typeof out !== "string") expect(out.equals(Buffer.from(expected, "utf8"))).toBe(true);
        }
      }),
    );
  });

  it("leaves out what JSON.stringify leaves out, and defers to toJSON, arrays and class instances", () => {
    const part = shared({ quote: "Twelve customers 💼", lone: "\ud800" });
    const when = new Date("2026-11-25T00:00:00Z");
    for (let i = 0; i < 3; i++) {
      const value = { a: undefined, part, b: () => 1, c: Symbol("s"), when, d: 1 };
      expect(text(sharedJsonBytes(value))).toBe(JSON.stringify(value));
      expect(text(sharedJsonBytes({ a: undefined, part }))).toBe(JSON.stringify({ part }));
    }
    expect(sharedJsonBytes({})).toBe("{}");
    expect(sharedJsonBytes({ toJSON: () => "x" })).toBe('"x"');
    expect(sharedJsonBytes([1, part])).toBe(JSON.stringify([1, part]));
    expect(sharedJsonBytes(part)).toBe(JSON.stringify(part));
    expect(sharedJsonBytes("text")).toBe('"text"');
  });

  it("keeps a shared part's bytes from its second use on, as sharedJson keeps its text", () => {
    const part = shared({ list: [1, 2] });
    expect(typeof sharedJsonBytes({ part })).toBe("string");
    expect(Buffer.isBuffer(sharedJsonBytes({ part }))).toBe(true);
    expect(typeof sharedJsonBytes({ other: { list: [1, 2] } })).toBe("string");
  });

  it("answers a repeated task's report with the same bytes as JSON.stringify", async () => {
    const scorer = memoizeScorer(offlineScorer);
    for (const task of [
      { task: "Refactor", description: "" },
      { task: "Add dark mode 🌙", description: "Please" },
    ])
      for (let i = 0; i < 3; i++) {
        const { report } = await scoreTask(task, { scorer });
        const out = sharedJsonBytes(report);
        expect(text(out)).toBe(JSON.stringify(report));
        // From the third report on, its persona scores and reading are bytes kept from the second.
        if (i === 2) expect(Buffer.isBuffer(out)).toBe(true);
      }
  });
});
