/**
 * The offer, as data: every term of the specification's plan table in one place. The software enforces
 * the terms it can (allowance, visibility of reports, API access); the rest (support) is stated here so
 * that pages, the usage endpoint and the docs all read the same words.
 */
export type PlanId = "free" | "payg" | "pro";

export interface Plan {
  id: PlanId;
  name: string;
  /** Fixed price per calendar month, USD. */
  monthlyUsd: number;
  /** Price per counted task, USD (Pay-as-you-go). */
  perTaskUsd: number;
  /** Tasks per calendar month (UTC); null means unlimited. */
  allowancePerMonth: number | null;
  personas: 5;
  /** Public reports can be read by anyone with the link; private ones only with the account's key. */
  reports: "public" | "private";
  /** Listing and reading reports programmatically (GET /reports). Scoring with a key is open to every plan. */
  apiAccess: boolean;
  support: string;
  customIntegrations: boolean;
  /**
   * Requests per minute one account may send to the API, across the whole fleet, and how many may come at
   * once after a quiet spell (the burst). Beyond it: 429 `rate_limited` with `Retry-After`.
   */
  rateLimit: { perMinute: number; burst: number };
}

export const PLANS: Readonly<Record<PlanId, Plan>> = {
  free: {
    id: "free",
    name: "Free",
    monthlyUsd: 0,
    perTaskUsd: 0,
    allowancePerMonth: 10,
    personas: 5,
    reports: "public",
    apiAccess: false,
    support: "community",
    customIntegrations: false,
    rateLimit: { perMinute: 10, burst: 10 },
  },
  payg: {
    id: "payg",
    name: "Pay-as-you-go",
    monthlyUsd: 0,
    perTaskUsd: 1,
    allowancePerMonth: null,
    personas: 5,
    reports: "private",
    apiAccess: false,
    support: "e-mail",
    customIntegrations: false,
    rateLimit: { perMinute: 120, burst: 30 },
  },
  pro: {
    id: "pro",
    name: "Pro",
    monthlyUsd: 50,
    perTaskUsd: 0,
    allowancePerMonth: null,
    personas: 5,
    reports: "private",
    apiAccess: true,
    support: "priority",
    customIntegrations: true,
    rateLimit: { perMinute: 600, burst: 100 },
  },
};

export const isPlanId = (s: string): s is PlanId => Object.hasOwn(PLANS, s);

/** The billing period of an instant: its calendar month in UTC, "YYYY-MM". */
export function periodOf(at: Date): string {
  return at.toISOString().slice(0, 7);
}

/** The first instant of the next period (UTC). */
export function nextPeriodStart(at: Date): Date {
  return new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth() + 1, 1));
}

/** What a period's usage costs under a plan, in USD. */
export function amountDue(plan: Plan, tasks: number): number {
  return plan.monthlyUsd + plan.perTaskUsd * tasks;
}
