import { z } from "zod";

/**
 * The approval policy is data: three conditions with configurable thresholds. The defaults are the
 * contract's: average >= 7, no persona below 4, and at least 3 of the 5 personas at 7 or more.
 */
export const ApprovalPolicySchema = z
  .object({
    minAverage: z
      .number()
      .min(1)
      .max(10)
      .default(7)
      .describe("Approved only when the average score is at least this."),
    minScore: z
      .number()
      .min(1)
      .max(10)
      .default(4)
      .describe("Approved only when no persona scores below this (no strong objection)."),
    minSupporters: z
      .number()
      .int()
      .min(0)
      .max(5)
      .default(3)
      .describe("Approved only when at least this many personas support the task."),
    supportScore: z
      .number()
      .min(1)
      .max(10)
      .default(7)
      .describe("A persona supports the task when its score is at least this."),
  })
  .strict();

export type ApprovalPolicy = z.output<typeof ApprovalPolicySchema>;
export const DEFAULT_APPROVAL_POLICY: ApprovalPolicy = ApprovalPolicySchema.parse({});

export interface ApprovalCondition {
  id: "average" | "minimum" | "majority";
  passed: boolean;
  /** A sentence naming the rule and the measured value, e.g. "average 6.4 is below 7". */
  summary: string;
}

export interface ApprovalResult {
  approved: boolean;
  conditions: ApprovalCondition[];
}

export interface ScoreStats {
  avgScore: number;
  minScore: number;
  maxScore: number;
}

/** Exact mean, min and max. The mean is not rounded: the contract pins sum / count. */
export function computeStats(scores: readonly number[]): ScoreStats {
  if (scores.length === 0) throw new Error("cannot compute consensus of no scores");
  let sum = 0;
  let min = Infinity;
  let max = -Infinity;
  for (const s of scores) {
    sum += s;
    if (s < min) min = s;
    if (s > max) max = s;
  }
  return { avgScore: sum / scores.length, minScore: min, maxScore: max };
}

function fmt(n: number): string {
  return Number.isInteger(n) ? String(n) : n.toFixed(2).replace(/0+$/, "");
}

/** The policy's three conditions, measured once: the one place that says what passes. */
function checkPolicy(stats: ScoreStats, scores: readonly number[], policy: ApprovalPolicy) {
  let supporters = 0;
  for (const s of scores) if (s >= policy.supportScore) supporters++;
  return {
    average: stats.avgScore >= policy.minAverage,
    minimum: stats.minScore >= policy.minScore,
    majority: supporters >= policy.minSupporters,
    supporters,
  };
}

/** Whether the policy approves, without the sentences `evaluateApproval` writes (the REST path needs only this). */
export function isApproved(stats: ScoreStats, scores: readonly number[], policy: ApprovalPolicy): boolean {
  const c = checkPolicy(stats, scores, policy);
  return c.average && c.minimum && c.majority;
}

export function evaluateApproval(
  scores: readonly number[],
  policy: ApprovalPolicy = DEFAULT_APPROVAL_POLICY,
): ApprovalResult {
  const stats = computeStats(scores);
  const { avgScore, minScore } = stats;
  const c = checkPolicy(stats, scores, policy);
  const conditions: ApprovalCondition[] = [
    {
      id: "average",
      passed: c.average,
      summary: `average ${fmt(avgScore)} ${c.average ? "is at least" : "is below"} ${fmt(policy.minAverage)}`,
    },
    {
      id: "minimum",
      passed: c.minimum,
      summary: `lowest score ${fmt(minScore)} ${c.minimum ? "is at least" : "is below"} ${fmt(policy.minScore)}`,
    },
    {
      id: "majority",
      passed: c.majority,
      summary: `${c.supporters} of ${scores.length} personas score ${fmt(policy.supportScore)} or more (${fmt(policy.minSupporters)} needed)`,
    },
  ];
  return { approved: conditions.every((x) => x.passed), conditions };
}
