import { nextPeriodStart, periodOf, PLANS, isPlanId, type Plan } from "../core/plans.js";
import type { AccountStore } from "./account-store.js";

/** What `GET /usage` and `npm run admin -- usage` print: one object, from one computation. */
export interface UsageReport {
  account: string;
  plan: string;
  period: string;
  periodEnds: string;
  tasksUsed: number;
  allowance: number | null;
  remaining: number | null;
  amountDueUsd: number;
}

/**
 * The period's usage and amount due, from the ledger: each counted task at the price of the plan it was
 * counted under (its row's unit price), plus the monthly fee of every plan the account held this period (the
 * plans on its rows, a plan change's row included, and the current plan), each fee once. So Free tasks stay
 * free after a move to Pay-as-you-go, and a Pro month moved to Pay-as-you-go still owes Pro's fee.
 */
export async function usageReport(store: AccountStore, accountId: string, plan: Plan, now: Date) {
  const period = periodOf(now);
  const bill = await store.periodBill(accountId, period);
  const held = new Set<Plan>([plan]);
  for (const id of bill.plans) if (isPlanId(id)) held.add(PLANS[id]);
  const feesCents = [...held].reduce((sum, p) => sum + Math.round(p.monthlyUsd * 100), 0);
  const allowance = plan.allowancePerMonth;
  const report: UsageReport = {
    account: accountId,
    plan: plan.name,
    period,
    periodEnds: nextPeriodStart(now).toISOString(),
    tasksUsed: bill.tasks,
    allowance,
    remaining: allowance === null ? null : Math.max(0, allowance - bill.tasks),
    amountDueUsd: (feesCents + bill.taskCents) / 100,
  };
  return report;
}
