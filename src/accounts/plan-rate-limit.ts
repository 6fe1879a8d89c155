import { CompiledQuery } from "kysely";
import { AccessError } from "../core/errors.js";
import type { Plan } from "../core/plans.js";
import { holdStatement } from "./account-store.js";
import { prepared } from "../storage/prepared-statements.js";
import { StatementBatcher } from "../storage/statement-batcher.js";
import type { Db } from "../storage/tables.js";

/** A limit: `perMinute` sustained, up to `burst` at once after a quiet spell. */
export interface RateRule {
  perMinute: number;
  burst: number;
}

export interface RateDecision {
  allowed: boolean;
  /** Seconds until a request would be allowed (0 when allowed). */
  retryAfterSeconds: number;
  /** Requests that could be sent now, after this one. */
  remaining: number;
  /** Seconds until the full burst is available again. */
  resetSeconds: number;
}

/**
 * Requests per minute by plan. The generic cell rate algorithm (GCRA): one number per subject, the
 * "theoretical arrival time" (tat), so a limiter needs one atomic read-modify-write and no per-request rows.
 * A request at `now` is allowed when max(tat, now) + interval − now ≤ burst × interval; it then moves tat on by
 * one interval.
 */
export interface RateLimiter {
  take(subject: string, rule: RateRule): Promise<RateDecision>;
  /**
   * The rate, then (only if it allowed) one task of the month's allowance held, in one statement: what
   * `take` and then `AccountStore.reserve` do, in the same order, in one round trip. Optional.
   */
  takeAndHold?(subject: string, rule: RateRule, hold: AllowanceHold): Promise<HeldDecision>;
  close?(): Promise<void>;
}

/** The month and its allowance, for `takeAndHold`; `subject` is then the account's id. */
export interface AllowanceHold {
  period: string;
  allowance: number;
}

export interface HeldDecision extends RateDecision {
  /** The task was held (only ever when the rate allowed the request). */
  held: boolean;
}

const interval = (rule: RateRule) => 60_000 / rule.perMinute;

/**
 * Where a subject's budget under a rule is kept: per subject and rule, so that a plan change takes effect on the
 * next request (an upgraded account does not wait out the backlog of its old, slower rule; a downgraded one
 * starts its new rule's budget). Account ids hold no "@".
 */
export const ruleKey = (subject: string, rule: RateRule) => `${subject}@${rule.perMinute}/${rule.burst}`;

/** The decision from the new tat (allowed) or the tat that refused it. */
export function decide(rule: RateRule, now: number, tat: number, allowed: boolean): RateDecision {
  const t = interval(rule);
  const window = rule.burst * t;
  const backlog = Math.max(0, tat - now);
  return {
    allowed,
    retryAfterSeconds: allowed ? 0 : Math.max(1, Math.ceil((backlog + t - window) / 1000)),
    remaining: Math.max(0, Math.floor((window - backlog) / t)),
    resetSeconds: Math.ceil(backlog / 1000),
  };
}

/** One process (no database shared with others): the limit lives in memory. */
export class MemoryRateLimiter implements RateLimiter {
  private readonly tats = new Map<string, number>();
  constructor(private readonly now: () => number = Date.now) {}

  async take(subject: string, rule: RateRule): Promise<RateDecision> {
    const now = this.now();
    const t = interval(rule);
    const key = ruleKey(subject, rule);
    const tat = Math.max(this.tats.get(key) ?? now, now);
    if (tat + t - now > rule.burst * t) return decide(rule, now, tat, false);
    this.tats.set(key, tat + t);
    // Subjects whose bucket is full again need no entry: keep the map from growing without bound.
    if (this.tats.size > 100_000) for (const [k, v] of this.tats) if (v <= now) this.tats.delete(k);
    return decide(rule, now, tat + t, true);
  }
}

/** A fleet with Redis: one atomic script per request (Redis's clock, so instances' clocks need not agree). */
export class RedisRateLimiter implements RateLimiter {
  private static readonly SCRIPT = `
    local t = tonumber(ARGV[1])
    local window = tonumber(ARGV[2])
    local time = redis.call('TIME')
    local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
    local tat = tonumber(redis.call('GET', KEYS[1]) or now)
    if tat < now then tat = now end
    if tat + t - now > window then return {0, tat, now} end
    redis.call('SET', KEYS[1], tat + t, 'PX', math.ceil(tat + t - now))
    return {1, tat + t, now}`;

  constructor(
    private readonly redis: {
      eval(script: string, keys: number, ...args: (string | number)[]): Promise<unknown>;
      quit?(): Promise<unknown>;
    },
    private readonly prefix = "task-scorer",
  ) {}

  async take(subject: string, rule: RateRule): Promise<RateDecision> {
    const t = interval(rule);
    const [ok, tat, now] = (await this.redis.eval(
      RedisRateLimiter.SCRIPT,
      1,
      `${this.prefix}:rate:${ruleKey(subject, rule)}`,
      t,
      rule.burst * t,
    )) as [number, number, number];
    return decide(rule, now, tat, ok === 1);
  }

  async close(): Promise<void> {
    await this.redis.quit?.();
  }
}

interface TakeInput {
  rule: RateRule;
  hold?: AllowanceHold | undefined;
}

/**
 * A fleet on PostgreSQL without Redis: conditional upserts on the database's clock. Takes that arrive within
 * a millisecond or two share one statement per rule (StatementBatcher: one row per subject; a subject's second
 * take waits for the next statement, since one statement may not change a row twice), so the limit costs a
 * fraction of a round trip per request under load.
 */
export class DatabaseRateLimiter implements RateLimiter {
  private readonly takes: StatementBatcher<TakeInput, HeldDecision>;

  constructor(
    private readonly db: Db,
    maxWaitMs = 1,
  ) {
    this.takes = new StatementBatcher(
      (group) =>
        this.takeAll(
          group.map((g) => g.subject),
          group[0]!.input,
        ),
      ({ rule, hold }) => `${rule.perMinute}/${rule.burst}/${hold ? `${hold.period}/${hold.allowance}` : ""}`,
      maxWaitMs,
    );
  }

  take(subject: string, rule: RateRule): Promise<RateDecision> {
    return this.takes.submit(subject, { rule });
  }

  takeAndHold(subject: string, rule: RateRule, hold: AllowanceHold): Promise<HeldDecision> {
    return this.takes.submit(subject, { rule, hold });
  }

  private async takeAll(accounts: string[], { rule, hold }: TakeInput): Promise<Map<string, HeldDecision>> {
    // The rate's rows are per subject and rule (ruleKey); the hold's, per account (the part before "@").
    const subjects = accounts.map((a) => ruleKey(a, rule));
    const t = Math.ceil(interval(rule));
    const window = Math.floor(rule.burst * interval(rule));
    // Allowed: the row's tat moves on and is returned. Refused: nothing changes and nothing is returned.
    // A fixed text and three values: nothing is built or compiled per statement on this hot path.
    const allowed = await this.db.executeQuery<{ subject: string; tat: string; now: string; held?: boolean }>(
      hold
        ? CompiledQuery.raw(TAKE_AND_HOLD_SQL, [subjects, t, window, hold.period, hold.allowance])
        : CompiledQuery.raw(TAKE_SQL, [subjects, t, window]),
    );
    const done = new Map(allowed.rows.map((r) => [r.subject, r]));
    const refused = subjects.filter((s) => !done.has(s));
    // Only refusals, the rare case, need the tat that refused them (for Retry-After).
    const current =
      refused.length === 0
        ? new Map<string, { tat: string; now: string }>()
        : new Map(
            (
              await this.db.executeQuery<{ subject: string; tat: string; now: string }>(
                CompiledQuery.raw(
                  `SELECT subject, tat_ms AS tat, ${NOW_MS} AS now FROM rate_limits WHERE subject = ANY($1::text[])`,
                  [refused],
                ),
              )
            ).rows.map((r) => [r.subject, r]),
          );
    return new Map(
      accounts.map((account, i): [string, HeldDecision] => {
        const subject = subjects[i]!;
        const a = done.get(subject);
        if (a)
          return [account, { ...decide(rule, Number(a.now), Number(a.tat), true), held: a.held === true }];
        const c = current.get(subject);
        return [account, { ...decide(rule, Number(c?.now ?? 0), Number(c?.tat ?? 0), false), held: false }];
      }),
    );
  }
}

/** The database's clock in milliseconds, as the statements below read it. */
const NOW_MS = "(extract(epoch from statement_timestamp()) * 1000)::bigint";
/** $1 subjects, $2 the interval and $3 the window, both in milliseconds (see DatabaseRateLimiter.takeAll). */
const TAKE_SQL_TEXT = `
  INSERT INTO rate_limits AS r (subject, tat_ms)
  SELECT s, ${NOW_MS} + $2::bigint FROM unnest($1::text[]) AS s
  ON CONFLICT (subject) DO UPDATE SET tat_ms = greatest(r.tat_ms, ${NOW_MS}) + $2::bigint
  WHERE greatest(r.tat_ms, ${NOW_MS}) + $2::bigint - ${NOW_MS} <= $3::bigint
  RETURNING subject, tat_ms AS tat, ${NOW_MS} AS now`;
const TAKE_SQL = prepared(TAKE_SQL_TEXT);

/**
 * TAKE_SQL, and for each subject it allowed, the allowance's hold (the same text as AccountStore.reserve)
 * in the same statement: $4 the period, $5 the allowance. A refused subject holds nothing.
 */
const TAKE_AND_HOLD_SQL = prepared(`
  WITH rate AS (${TAKE_SQL_TEXT}
  ), held AS (${holdStatement("(SELECT split_part(subject, '@', 1) FROM rate)", "$4::text", "$5::int")}
  )
  SELECT rate.subject, rate.tat, rate.now, held.account_id IS NOT NULL AS held
  FROM rate LEFT JOIN held ON held.account_id = split_part(rate.subject, '@', 1)`);

/**
 * Take one request from an account's per-minute budget, or refuse with 429 `rate_limited` (distinct from the
 * monthly `quota_exceeded`). The RateLimit-* headers of a refusal describe this limit, named by
 * RateLimit-Policy; a Free plan's successful answers keep describing its monthly allowance.
 */
export async function enforcePlanRate(limiter: RateLimiter, accountId: string, plan: Plan): Promise<void> {
  const d = await limiter.take(accountId, plan.rateLimit);
  if (!d.allowed) throw rateRefusal(plan, d);
}

/** The 429 `rate_limited` answer for a refused take. */
export function rateRefusal(plan: Plan, d: RateDecision): AccessError {
  const { perMinute, burst } = plan.rateLimit;
  return new AccessError(
    "rate_limited",
    `The ${plan.name} plan allows ${perMinute} requests a minute, ${burst} at once; try again in ${d.retryAfterSeconds} s.`,
    {
      "retry-after": String(d.retryAfterSeconds),
      "ratelimit-policy": `${perMinute};w=60;burst=${burst}`,
      "ratelimit-limit": String(perMinute),
      "ratelimit-remaining": "0",
      "ratelimit-reset": String(Math.max(d.retryAfterSeconds, d.resetSeconds)),
    },
  );
}
