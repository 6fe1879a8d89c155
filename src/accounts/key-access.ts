import { randomUUID } from "node:crypto";
import { AccessError, InvalidRequestError } from "../core/errors.js";
import { isPlanId, periodOf, PLANS, type Plan } from "../core/plans.js";
import type { ScoreReport } from "../core/score-report.schema.js";
import { hashKey, isScope, isWellFormedKey, sha256Hex, type Scope } from "./api-keys.js";
import type { Account } from "./account.js";
import type { AccountStore } from "./account-store.js";
import { allowanceHeaders, overAllowance } from "./allowance-answers.js";
import type { KeyCache } from "./key-cache.js";
import type { LedgerBatcher } from "./ledger-batcher.js";
import { enforcePlanRate, rateRefusal, type RateLimiter } from "./plan-rate-limit.js";
import { KeySlots } from "./key-slots.js";
import { usageReport, type UsageReport } from "./usage-report.js";

/** Who is calling: the key's account and plan, and what the key may do. */
export interface Principal {
  account: Account;
  plan: Plan;
  keyId: string;
  scopes: Scope[];
}

const REALM = 'Bearer realm="task-scorer"';
const IDEMPOTENCY_KEY_RE = /^[\x21-\x7e]{1,255}$/;

function unauthorized(message: string, description?: string): AccessError {
  return new AccessError("unauthorized", message, {
    "www-authenticate": description
      ? `${REALM}, error="invalid_token", error_description="${description}"`
      : REALM,
  });
}

export interface MeteredResult {
  report: ScoreReport;
  /** The report as stored, when it was stored by this request: the answer can be this text as it is. */
  json?: string;
  reportId: string;
  /** The same Idempotency-Key and body were seen before: this is the first report, not counted again. */
  replayed: boolean;
  headers: Record<string, string>;
}

/**
 * API keys, scopes and the plans' allowances for the REST API (AUTH=keys). Counting follows the ledger:
 * a successful report counts one task, a failed one nothing, and a retry with the same Idempotency-Key
 * returns the report already produced without counting again.
 */
/** Requests one key may have in scoring at once on one instance; `KEY_MAX_CONCURRENT`. */
export const DEFAULT_KEY_MAX_CONCURRENT = 4;

/** A key as the database holds it, with its account and plan. */
export type KeyRow = NonNullable<Awaited<ReturnType<AccountStore["keyByHash"]>>>;

/** What makes keyed requests fast and fair; each is optional (tests leave them out). */
export interface KeyAccessParts {
  /** Verified keys kept in memory while change notices arrive (see key-cache.ts); none: every lookup asks. */
  cache?: KeyCache<KeyRow>;
  /** Requests per minute by plan, shared by the fleet (see plan-rate-limit.ts). */
  limiter?: RateLimiter;
  /** Group commit of the ledger for plans without an allowance (see ledger-batcher.ts). */
  ledger?: LedgerBatcher;
}

export class KeyAccess {
  private readonly slots: KeySlots;

  constructor(
    private readonly store: AccountStore,
    private readonly clock: () => Date = () => new Date(),
    maxConcurrentPerKey = DEFAULT_KEY_MAX_CONCURRENT,
    private readonly parts: KeyAccessParts = {},
  ) {
    this.slots = new KeySlots(maxConcurrentPerKey);
  }

  /** The key's row: from memory when a notice would have told us of any change, else from the database. */
  private async lookup(hash: string): Promise<KeyRow | undefined> {
    const { cache } = this.parts;
    const cached = cache?.get(hash);
    if (cached) return cached;
    const ticket = cache?.ticket() ?? 0;
    const row = await this.store.keyByHash(hash);
    if (row) cache?.set(hash, row, { keyId: row.keyId, accountId: row.accountId }, ticket);
    return row;
  }

  async authenticate(authorization: string | undefined, scope: Scope): Promise<Principal> {
    if (!authorization) throw unauthorized("This API needs a key: send `Authorization: Bearer tsk_…`.");
    const m = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
    if (!m)
      throw unauthorized("Send the key as `Authorization: Bearer tsk_…`.", "malformed authorization header");
    const key = m[1]!;
    if (!isWellFormedKey(key))
      throw unauthorized(
        "That is not a task-scorer API key (they start with `tsk_` and are 40 characters long); check it was copied whole.",
        "malformed key",
      );
    const row = await this.lookup(hashKey(key));
    if (!row)
      throw unauthorized("This API key is not known; create a new one with the admin CLI.", "unknown key");
    const now = this.clock();
    if (row.revoked_at)
      throw unauthorized(
        `This API key was revoked on ${row.revoked_at.toISOString().slice(0, 10)}; use another key.`,
        "revoked key",
      );
    if (row.expires_at && row.expires_at <= now)
      throw unauthorized(
        `This API key expired on ${row.expires_at.toISOString().slice(0, 10)}; create a new one.`,
        "expired key",
      );
    const scopes = row.scopes.filter(isScope);
    if (!scopes.includes(scope))
      throw new AccessError(
        "forbidden",
        `This key does not have the \`${scope}\` scope; create a key that does.`,
        {
          "www-authenticate": `${REALM}, error="insufficient_scope", scope="${scope}"`,
        },
      );
    const plan = PLANS[isPlanId(row.plan) ? row.plan : "free"];
    return {
      account: { id: row.accountId, name: row.name, plan: plan.id, githubLogin: row.github_login },
      plan,
      keyId: row.keyId,
      scopes,
    };
  }

  /**
   * Score under the plan: replay a known Idempotency-Key, refuse early when the allowance is used up, score,
   * then count and store in one transaction (which refuses again if others used the last task meanwhile).
   */
  async meteredScore(
    p: Principal,
    idempotencyKey: string | undefined,
    input: { task: string; description?: string | null | undefined },
    produce: () => Promise<ScoreReport>,
  ): Promise<MeteredResult> {
    if (idempotencyKey !== undefined && !IDEMPOTENCY_KEY_RE.test(idempotencyKey))
      throw new InvalidRequestError(
        "The Idempotency-Key header must be 1 to 255 visible ASCII characters, such as a UUID.",
      );
    const requestHash = sha256Hex(JSON.stringify([input.task, input.description ?? ""]));
    const period = periodOf(this.clock());
    const { limiter } = this.parts;
    const allowance = p.plan.allowancePerMonth;
    // A retry of a request already answered gets its stored report: it costs no model time, so it is neither
    // rate-limited nor counted.
    if (idempotencyKey) {
      const replay = await this.replay(p, idempotencyKey, requestHash, period);
      if (replay) return replay;
    }
    // The rate and then the allowance's hold in one round trip where the limiter can (PostgreSQL), in the
    // same order as one after the other: a request the rate refuses holds nothing. With an Idempotency-Key
    // the ledger decides below whether it is new, so nothing is held with the rate.
    let held: boolean | undefined;
    try {
      if (limiter?.takeAndHold && allowance !== null && idempotencyKey === undefined) {
        const d = await limiter.takeAndHold(p.account.id, p.plan.rateLimit, { period, allowance });
        if (!d.allowed) throw rateRefusal(p.plan, d);
        held = d.held;
      } else if (limiter) await enforcePlanRate(limiter, p.account.id, p.plan);
    } catch (err) {
      // A month's allowance used up is the answer that matters (waiting a minute would not help).
      if (
        err instanceof AccessError &&
        err.code === "rate_limited" &&
        (await this.allowanceUsedUp(p, period))
      )
        throw overAllowance(p.plan, this.clock());
      throw err;
    }
    // One key cannot hold the model's whole concurrency (and the other customers' turns): its requests
    // beyond the limit wait their turn, and beyond a bounded line they are refused.
    try {
      await this.slots.take(p.keyId);
    } catch (err) {
      if (held) await this.giveBack(p.account.id, period);
      throw err;
    }
    try {
      return await this.scoreWithinAllowance(p, idempotencyKey, requestHash, period, produce, held);
    } finally {
      this.slots.give(p.keyId);
    }
  }

  /** Whether a plan with an allowance has used all of it this period (asked only when the rate refuses). */
  private async allowanceUsedUp(p: Principal, period: string): Promise<boolean> {
    const allowance = p.plan.allowancePerMonth;
    return allowance !== null && (await this.store.used(p.account.id, period)) >= allowance;
  }

  private async giveBack(accountId: string, period: string): Promise<void> {
    await this.store.release(accountId, period).catch(() => {
      // The hold stays: the counter is then one above the ledger until the month ends (never below).
    });
  }

  /**
   * A plan with an allowance holds one task of it before any model time is spent (so parallel requests
   * cannot score more reports than the allowance), and gives it back if no report is counted.
   */
  private async scoreWithinAllowance(
    p: Principal,
    idempotencyKey: string | undefined,
    requestHash: string,
    period: string,
    produce: () => Promise<ScoreReport>,
    /** Whether the task was held already, with the rate (see meteredScore); undefined: not asked yet. */
    held?: boolean,
  ): Promise<MeteredResult> {
    const allowance = p.plan.allowancePerMonth;
    const reserved = allowance !== null;
    if (reserved && !(held ?? (await this.store.reserve(p.account.id, period, allowance))))
      throw overAllowance(p.plan, this.clock());
    let counted = false;
    try {
      const report = await produce();
      // One JSON text for the stored report and the answer (the same report): made once, not twice.
      const json = JSON.stringify(report);
      const charge = {
        account: p.account,
        accountId: p.account.id,
        plan: p.plan,
        period,
        idempotencyKey: idempotencyKey ?? `req_${randomUUID()}`,
        requestHash,
        source: "api" as const,
        report,
        reportJson: json,
        reserved,
      };
      // Nothing is left to check row by row (a plan with an allowance has held this task already, race-free,
      // before scoring): the ledger row joins a batch. Free tasks went through a transaction of their own,
      // five round trips each, although the batch takes held tasks.
      const charged = this.parts.ledger
        ? await this.parts.ledger.charge(charge)
        : await this.store.charge(charge);
      if (charged.outcome === "over_allowance") throw overAllowance(p.plan, this.clock());
      if (charged.outcome === "duplicate") {
        // The same key arrived twice at once and the other request counted first: answer with its report.
        const replay = await this.replay(p, idempotencyKey!, requestHash, period);
        if (replay) return replay;
        throw new AccessError(
          "idempotency_key_reused",
          "This Idempotency-Key is in use by a request still running.",
        );
      }
      counted = true;
      return { ...this.counted(p, report, charged), json };
    } finally {
      if (reserved && !counted) await this.giveBack(p.account.id, period);
    }
  }

  private counted(
    p: Principal,
    report: ScoreReport,
    charged: { reportId: string; used: number },
  ): MeteredResult {
    return {
      report,
      reportId: charged.reportId,
      replayed: false,
      headers: {
        ...allowanceHeaders(p.plan, this.clock(), charged.used),
        location: `/reports/${charged.reportId}`,
      },
    };
  }

  private async replay(
    p: Principal,
    idempotencyKey: string,
    requestHash: string,
    period: string,
  ): Promise<MeteredResult | undefined> {
    const prior = await this.store.ledgerEntry(p.account.id, idempotencyKey);
    if (!prior) return undefined;
    if (prior.request_hash !== requestHash)
      throw new AccessError(
        "idempotency_key_reused",
        "This Idempotency-Key was already used with a different body; use a new key for a new request.",
      );
    const stored = prior.report_id ? await this.store.report(prior.report_id) : undefined;
    if (!stored) return undefined;
    const used = await this.store.used(p.account.id, period);
    return {
      report: stored.report as ScoreReport,
      reportId: stored.id,
      replayed: true,
      headers: {
        ...allowanceHeaders(p.plan, this.clock(), used),
        location: `/reports/${stored.id}`,
        "idempotent-replayed": "true",
      },
    };
  }

  /** The period's usage and amount due: the same computation as the admin CLI's `usage` (usage-report.ts). */
  async usage(p: Principal): Promise<UsageReport> {
    return usageReport(this.store, p.account.id, p.plan, this.clock());
  }

  /** A stored report: public ones to anyone, private ones to their account's keys. Undefined = not found. */
  async readReport(id: string, authorization: string | undefined) {
    const stored = await this.store.report(id);
    if (!stored) return undefined;
    if (stored.visibility === "public") return stored;
    // Without a valid key of its account a private report is "not found", like one that does not exist
    // (never 401 or 403, which would tell that it exists): its existence is private.
    if (!authorization) return undefined;
    try {
      const p = await this.authenticate(authorization, "reports:read");
      return p.account.id === stored.account_id ? stored : undefined;
    } catch (err) {
      if (err instanceof AccessError) return undefined;
      throw err;
    }
  }

  /**
   * A page of the account's reports (Pro's API access), newest first: `limit` of them after the report `after`, and
   * whether more follow.
   */
  async listReports(authorization: string | undefined, page: { limit: number; after?: string }) {
    const p = await this.authenticate(authorization, "reports:read");
    if (!p.plan.apiAccess)
      throw new AccessError(
        "forbidden",
        `Listing reports through the API is part of the Pro plan; this account is on ${p.plan.name}.`,
      );
    const rows = await this.store.reports(p.account.id, page.limit + 1, page.after);
    if (!rows)
      throw new InvalidRequestError(
        "cursor in the query: not a page of this account's reports; start again without it.",
      );
    return { reports: rows.slice(0, page.limit), more: rows.length > page.limit };
  }
}
