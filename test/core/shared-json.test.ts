import fc from "fast-check";
import { describe, expect, it } from "@jest/globals";
import { memoizeScorer } from "../../src/core/memoize-scorer.js";
import { offlineScorer } from "../../src/core/offline/offline-scorer.js";
import { scoreTask } from "../../src/core/score-task.js";
import { isShared, shared, sharedJson } from "../../src/core/shared-json.js";

describe("sharedJson", () => {
  it("gives exactly JSON.stringify's text for any JSON value, with or without shared parts", () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string(), fc.jsonValue()), fc.boolean(), (value, share) => {
        const expected = JSON.stringify(value);
        if (share)
          for (const v of Object.values(value)) if (v !== null && typeof v === "object") shared(v as object);
        expect(sharedJson(value)).toBe(expected);
        expect(sharedJson(value)).toBe(expected); // again, from the remembered texts
      }),
    );
  });

  it("leaves out what JSON.stringify leaves out, and defers to toJSON, arrays and class instances", () => {
    const when = new Date("2026-11-25T00:00:00Z");
    expect(sharedJson({ a: undefined, b: () => 1, c: Symbol("s"), d: 1 })).toBe('{"d":1}');
    expect(sharedJson({})).toBe("{}");
    expect(sharedJson({ toJSON: () => "x" })).toBe('"x"');
    expect(sharedJson([1, { a: 2 }])).toBe('[1,{"a":2}]');
    expect(sharedJson(when)).toBe(JSON.stringify(when));
    expect(sharedJson({ when })).toBe(JSON.stringify({ when }));
    expect(sharedJson("text")).toBe('"text"');
  });

  it("a shared part is frozen all the way down, so its remembered text cannot go stale", () => {
    const part = shared({ list: [{ quote: "Twelve customers" }] });
    expect(() => {
      (part.list[0] as { quote: string }).quote = "changed";
    }).toThrow(TypeError);
    expect(() => {
      part.list.push({ quote: "more" });
    }).toThrow(TypeError);
    expect(sharedJson({ part })).toBe('{"part":{"list":[{"quote":"Twelve customers"}]}}');
    // A part frozen on the outside only is frozen through as well.
    const shallow = shared(Object.freeze({ inner: { n: 1 } }));
    expect(Object.isFrozen(shallow.inner)).toBe(true);
  });
});

describe("reports of a repeated task", () => {
  it("share their persona scores and reading, and their JSON is the same as JSON.stringify's", async () => {
    const scorer = memoizeScorer(offlineScorer);
    const task = {
      task: "Add CSV export of reports",
      description: "Twelve enterprise customers asked for it.",
    };
    const first = await scoreTask(task, { scorer, clock: () => new Date("2026-11-25T10:00:00Z") });
    const second = await scoreTask(task, { scorer, clock: () => new Date("2026-11-25T10:00:01Z") });
    expect(second.report.expertScores).toBe(first.report.expertScores);
    expect(second.report.reading).toBe(first.report.reading);
    expect(isShared(second.report.expertScores)).toBe(true);
    expect(isShared(second.report.reading)).toBe(true);
    // Only the timestamp differs, and each text is exactly what JSON.stringify makes of its report.
    expect(sharedJson(first.report)).toBe(JSON.stringify(first.report));
    expect(sharedJson(second.report)).toBe(JSON.stringify(second.report));
    expect(sharedJson(second.report)).toContain('"timestamp":"2026-11-25T10:00:01.000Z"');
  });
});
