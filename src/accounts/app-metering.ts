import { nextPeriodStart, periodOf, PLANS, type Plan, type PlanId } from "../core/plans.js";
import type { ScoreReport } from "../core/score-report.schema.js";
import type { AccountStore } from "./account-store.js";

export type ChargeOutcome = "charged" | "duplicate" | "over_allowance";

/**
 * The App meters per GitHub account (the owner of the repository, which is the installation's
 * account): a Free account gets its allowance of reports a month, the same ledger as the REST API, with
 * the delivery id as the idempotency key so a redelivered webhook is never counted twice.
 */
export class AppMetering {
  constructor(
    private readonly store: AccountStore,
    private readonly clock: () => Date = () => new Date(),
  ) {}

  private async planOf(login: string) {
    const account = await this.store.accountForGithub(login);
    return { account, plan: PLANS[account.plan] };
  }

  /** Whether the account can still get a report this month (checked before spending a model's time). */
  async hasAllowance(login: string): Promise<boolean> {
    const { account, plan } = await this.planOf(login);
    if (plan.allowancePerMonth === null) return true;
    return (await this.store.used(account.id, periodOf(this.clock()))) < plan.allowancePerMonth;
  }

  async charge(login: string, deliveryId: string, report: ScoreReport): Promise<ChargeOutcome> {
    const { account, plan } = await this.planOf(login);
    const r = await this.store.charge({
      account,
      plan,
      period: periodOf(this.clock()),
      // A retry of the same delivery ("guid#2") is the same task.
      idempotencyKey: `delivery:${deliveryId.replace(/#\d+$/, "")}`,
      requestHash: `${report.task.length}:${report.description.length}`,
      source: "app",
      report,
    });
    return r.outcome;
  }

  /** The short, polite note that takes the report's place once a Free account's allowance is used. */
  allowanceNote(plan: Plan = PLANS.free): string {
    const now = this.clock();
    const month = now.toLocaleString("en", { month: "long", year: "numeric", timeZone: "UTC" });
    const renews = nextPeriodStart(now).toLocaleString("en", {
      day: "numeric",
      month: "long",
      timeZone: "UTC",
    });
    return (
      `This account has used the ${plan.allowancePerMonth} task scores included in the ${plan.name} plan for ${month}. ` +
      `Scoring resumes on ${renews}; the Pay-as-you-go and Pro plans have no monthly limit.`
    );
  }

  /** GitHub Marketplace: purchased, changed or cancelled sets the account's plan. */
  async onMarketplacePurchase(payload: {
    action?: string;
    effective_date?: string;
    marketplace_purchase?: { account?: { login?: string }; plan?: { name?: string; price_model?: string } };
  }): Promise<{ login: string; plan: PlanId } | undefined> {
    const login = payload.marketplace_purchase?.account?.login;
    // A pending change (a downgrade or cancellation asked for) takes effect at the end of the billing
    // cycle, when GitHub sends `changed` or `cancelled`: until then the customer keeps what they paid for.
    if (!login || !["purchased", "changed", "cancelled"].includes(payload.action ?? "")) return undefined;
    const plan: PlanId =
      payload.action === "cancelled" ? "free" : planFromMarketplace(payload.marketplace_purchase?.plan);
    const { account } = await this.planOf(login);
    // Applied in the order the events took effect: a late `purchased` must not undo a newer `cancelled`.
    const parsed = payload.effective_date ? new Date(payload.effective_date) : this.clock();
    const effective = Number.isNaN(parsed.getTime()) ? this.clock() : parsed;
    if (!(await this.store.setPlanIfNewer(account.id, plan, effective))) return undefined;
    return { login, plan };
  }
}

/** A Marketplace plan maps to ours by its price model (free, per unit, flat rate), then by name. */
export function planFromMarketplace(plan: { name?: string; price_model?: string } | undefined): PlanId {
  switch (plan?.price_model?.toUpperCase()) {
    case "FREE":
      return "free";
    case "PER_UNIT":
      return "payg";
    case "FLAT_RATE":
      return "pro";
  }
  const name = (plan?.name ?? "").toLowerCase();
  if (name.includes("pro")) return "pro";
  if (name.includes("pay")) return "payg";
  return "free";
}
