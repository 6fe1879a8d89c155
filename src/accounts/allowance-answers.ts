import { AccessError } from "../core/errors.js";
import { nextPeriodStart, periodOf, type Plan } from "../core/plans.js";

/** Seconds from `now` to the next billing period (at least 1). */
function secondsToNextPeriod(now: Date): number {
  return Math.max(1, Math.ceil((nextPeriodStart(now).getTime() - now.getTime()) / 1000));
}

/** The allowance headers for a plan with one (none for unlimited plans). */
export function allowanceHeaders(plan: Plan, now: Date, used: number): Record<string, string> {
  if (plan.allowancePerMonth === null) return {};
  return {
    "ratelimit-limit": String(plan.allowancePerMonth),
    "ratelimit-remaining": String(Math.max(0, plan.allowancePerMonth - used)),
    "ratelimit-reset": String(secondsToNextPeriod(now)),
  };
}

/** 429 quota_exceeded: the month's allowance is used up, with when it renews and what to do instead. */
export function overAllowance(plan: Plan, now: Date): AccessError {
  const next = nextPeriodStart(now);
  return new AccessError(
    "quota_exceeded",
    `The ${plan.name} plan's ${plan.allowancePerMonth} tasks for ${periodOf(now)} are used up; ` +
      `it renews on ${next.toISOString().slice(0, 10)} (UTC), or move to Pay-as-you-go or Pro for more.`,
    {
      "retry-after": String(secondsToNextPeriod(now)),
      ...allowanceHeaders(plan, now, plan.allowancePerMonth ?? 0),
    },
  );
}
