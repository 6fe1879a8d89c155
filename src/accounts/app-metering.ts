import { nextPeriodStart, periodOf, PLANS, type Plan, type PlanId } from "../core/plans.js";
import type { ScoreReport } from "../core/score-report.schema.js";
import type { Account } from "./account.js";
import type { AccountStore } from "./account-store.js";

export type ChargeOutcome = "charged" | "duplicate" | "over_allowance";

/** One task of an account's allowance held before scoring (see `AppMetering.hold`). */
export interface AppHold {
  account: Account;
  plan: Plan;
  period: string;
  /** A task of the allowance was held (plans with one): counted by `charge` or given back by `release`. */
  reserved: boolean;
}

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

  /**
   * Hold one task of the account's allowance before any model time is spent, as the REST API does (one
   * race-free statement): so parallel jobs of one account cannot score more reports than it has left.
   * Undefined when the allowance is used up. The hold is counted by `charge(..., hold)` or given back by
   * `release`; a plan without an allowance holds nothing.
   */
  async hold(login: string): Promise<AppHold | undefined> {
    const { account, plan } = await this.planOf(login);
    const period = periodOf(this.clock());
    const allowance = plan.allowancePerMonth;
    if (allowance === null) return { account, plan, period, reserved: false };
    return (await this.store.reserve(account.id, period, allowance))
      ? { account, plan, period, reserved: true }
      : undefined;
  }

  /** Give back a hold no report was counted for (the scoring failed). */
  async release(hold: AppHold): Promise<void> {
    if (hold.reserved) await this.store.release(hold.account.id, hold.period).catch(() => undefined);
  }

  /**
   * Count the report: on the task held for it when `hold` is given (a hold not counted, for a redelivery
   * already counted, is given back), else on the allowance as it stands.
   */
  async charge(
    login: string,
    deliveryId: string,
    report: ScoreReport,
    hold?: AppHold,
  ): Promise<ChargeOutcome> {
    const { account, plan, period } = hold ?? {
      ...(await this.planOf(login)),
      period: periodOf(this.clock()),
    };
    const r = await this.store.charge({
      account,
      plan,
      period,
      reserved: hold?.reserved ?? false,
      // A retry of the same delivery ("guid#2") is the same task.
      idempotencyKey: `delivery:${deliveryId.replace(/#\d+$/, "")}`,
      requestHash: `${report.task.length}:${report.description.length}`,
      source: "app",
      report,
    });
    if (hold && r.outcome !== "charged") await this.release(hold);
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
