import { describe, expect, it } from "@jest/globals";
import {
  ApprovalPolicySchema,
  computeStats,
  DEFAULT_APPROVAL_POLICY,
  evaluateApproval,
} from "../../src/core/approval.js";

describe("consensus", () => {
  it("is the exact mean, not rounded, with min and max", () => {
    expect(computeStats([7, 7, 7, 4, 10])).toEqual({ avgScore: 7, minScore: 4, maxScore: 10 });
    expect(computeStats([1, 2, 2, 2, 2]).avgScore).toBe(1.8);
    expect(computeStats([10, 10, 5, 5, 5])).toEqual({ avgScore: 7, minScore: 5, maxScore: 10 });
    expect(computeStats([3, 3, 4, 4, 4]).avgScore).toBeCloseTo(3.6, 12);
  });
});

describe("approval: the contract's three conditions", () => {
  it("uses the documented defaults", () => {
    expect(DEFAULT_APPROVAL_POLICY).toEqual({
      minAverage: 7,
      minScore: 4,
      minSupporters: 3,
      supportScore: 7,
    });
  });

  it("approves 7,7,7,4,10: average 7, lowest 4, three supporters (all at the boundary)", () => {
    const result = evaluateApproval([7, 7, 7, 4, 10]);
    expect(result.approved).toBe(true);
    expect(result.conditions.every((c) => c.passed)).toBe(true);
  });

  it("rejects 10,10,5,5,5: average 7 and no objection, but only two supporters", () => {
    const result = evaluateApproval([10, 10, 5, 5, 5]);
    expect(result.approved).toBe(false);
    expect(result.conditions.filter((c) => !c.passed).map((c) => c.id)).toEqual(["majority"]);
    expect(result.conditions.find((c) => c.id === "majority")!.summary).toBe(
      "2 of 5 personas score 7 or more (3 needed)",
    );
  });

  it("rejects a strong objection even with a high average: 10,10,10,10,3", () => {
    const result = evaluateApproval([10, 10, 10, 10, 3]);
    expect(result.approved).toBe(false);
    expect(result.conditions.filter((c) => !c.passed).map((c) => c.id)).toEqual(["minimum"]);
  });

  it("rejects an average just under the threshold: 7,7,7,7,7 passes, 7,7,7,7,6 does not", () => {
    expect(evaluateApproval([7, 7, 7, 7, 7]).approved).toBe(true);
    const r = evaluateApproval([7, 7, 7, 7, 6]);
    expect(r.approved).toBe(false);
    expect(r.conditions.filter((c) => !c.passed).map((c) => c.id)).toEqual(["average"]);
    expect(r.conditions.find((c) => c.id === "average")!.summary).toBe("average 6.8 is below 7");
  });

  it("follows configured thresholds", () => {
    const lenient = ApprovalPolicySchema.parse({ minAverage: 5, minScore: 2, minSupporters: 1 });
    expect(evaluateApproval([5, 5, 5, 2, 8], lenient).approved).toBe(true);
    expect(evaluateApproval([5, 5, 5, 1, 9], lenient).approved).toBe(false);
  });

  it("refuses nonsense thresholds", () => {
    expect(ApprovalPolicySchema.safeParse({ minAverage: 11 }).success).toBe(false);
    expect(ApprovalPolicySchema.safeParse({ minSupporters: 6 }).success).toBe(false);
    expect(ApprovalPolicySchema.safeParse({ minScore: "4" }).success).toBe(false);
  });
});
