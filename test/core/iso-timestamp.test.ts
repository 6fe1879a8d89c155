import fc from "fast-check";
import { describe, expect, it } from "@jest/globals";
import { isoTimestamp } from "../../src/core/iso-timestamp.js";

describe("isoTimestamp", () => {
  it("is Date#toISOString for any date, in any order (the cached second never leaks into another)", () => {
    fc.assert(
      fc.property(fc.array(fc.date({ noInvalidDate: true }), { minLength: 1, maxLength: 20 }), (dates) => {
        for (const d of dates) expect(isoTimestamp(d)).toBe(d.toISOString());
      }),
    );
  });

  it("within one second only the milliseconds change, padded to three digits", () => {
    const base = Date.UTC(2026, 10, 25, 22, 48, 32);
    for (const ms of [0, 7, 42, 999, 5, 100]) {
      const d = new Date(base + ms);
      expect(isoTimestamp(d)).toBe(d.toISOString());
    }
    expect(isoTimestamp(new Date(base + 7))).toBe("2026-11-25T22:48:32.007Z");
    expect(isoTimestamp(new Date(-500))).toBe("1969-12-31T23:59:59.500Z");
    expect(() => isoTimestamp(new Date(Number.NaN))).toThrow(RangeError);
  });
});
