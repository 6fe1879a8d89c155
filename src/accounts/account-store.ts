import { CompiledQuery, sql, type InferResult, type RawBuilder } from "kysely";
import { periodOf, type PlanId } from "../core/plans.js";
import { prepared } from "../storage/prepared-statements.js";
import type { Db } from "../storage/tables.js";
import { generateKey, hashKey, isScope, keyHint, type Scope } from "./api-keys.js";
import { KEY_NOTICES } from "./key-cache.js";
import { chargeTask, type ChargeInput, type ChargeOutcome } from "./charge-task.js";
import { newId } from "./record-ids.js";
import { toAccount, type Account } from "./account.js";

export interface KeyRecord {
  id: string;
  accountId: string;
  hint: string;
  scopes: Scope[];
  createdAt: Date;
  expiresAt: Date | null;
  revokedAt: Date | null;
}

/** Accounts, keys, usage and reports on one database (PostgreSQL or PGlite, the same SQL). */
export class AccountStore {
  constructor(readonly db: Db) {}

  async createAccount(name: string, plan: PlanId = "free", githubLogin?: string): Promise<Account> {
    const row = { id: newId("acct"), name, plan, github_login: githubLogin ?? null };
    await this.db.insertInto("accounts").values(row).execute();
    return toAccount(row);
  }

  async account(id: string): Promise<Account | undefined> {
    const row = await this.db.selectFrom("accounts").selectAll().where("id", "=", id).executeTakeFirst();
    return row && toAccount(row);
  }

  async accounts(): Promise<Account[]> {
    return (await this.db.selectFrom("accounts").selectAll().orderBy("created_at").execute()).map(toAccount);
  }

  /** The account the App meters for a GitHub user or organisation, created on first sight (Free). */
  async accountForGithub(login: string): Promise<Account> {
    await this.db
      .insertInto("accounts")
      .values({ id: newId("acct"), name: login, plan: "free", github_login: login })
      .onConflict((oc) => oc.column("github_login").doNothing())
      .execute();
    const row = await this.db
      .selectFrom("accounts")
      .selectAll()
      .where("github_login", "=", login)
      .executeTakeFirstOrThrow();
    return toAccount(row);
  }

  /** Set the plan (the admin CLI); the plan left is noted on this period's ledger (see `planChange`). */
  async setPlan(accountId: string, plan: PlanId, now = new Date()): Promise<boolean> {
    return this.changed(
      sql`UPDATE accounts SET plan = ${plan} WHERE id = ${accountId} RETURNING id, plan`,
      "account",
      this.planChange(accountId, periodOf(now)),
    );
  }

  /**
   * Set the plan from an event effective at `effective`, unless a newer event already set it (of two with the same date, the later arrival wins):
   * events are applied in the order they took effect, not the order they arrived.
   */
  async setPlanIfNewer(accountId: string, plan: PlanId, effective: Date, now = new Date()): Promise<boolean> {
    return this.changed(
      sql`UPDATE accounts SET plan = ${plan}, plan_effective_at = ${effective}
          WHERE id = ${accountId} AND (plan_effective_at IS NULL OR plan_effective_at <= ${effective})
          RETURNING id, plan`,
      "account",
      this.planChange(accountId, periodOf(now)),
    );
  }

  /**
   * A plan change's ledger row, in the change's own statement: quantity 0, the plan left. The amount due reads
   * every plan held in a period from the ledger (see usage-report.ts), so a month of Pro then Pay-as-you-go
   * still owes Pro's fee. Written only when the plan did change (the statements see the row as it was before).
   */
  private planChange(accountId: string, period: string): RawBuilder<unknown> {
    return sql`, before AS (SELECT id, plan FROM accounts WHERE id = ${accountId}),
      noted AS (
        INSERT INTO usage_ledger (account_id, idempotency_key, period, quantity, request_hash, source, plan,
          unit_price_cents)
        SELECT before.id, ${`plan:${newId("chg")}`}, ${period}, 0, '', 'plan', before.plan, 0
        FROM before JOIN changed ON changed.id = before.id WHERE changed.plan <> before.plan)`;
  }

  /** Create a key: the key itself is returned once and never stored. */
  async createKey(
    accountId: string,
    scopes: readonly Scope[],
    expiresAt: Date | null = null,
  ): Promise<{ key: string; record: KeyRecord }> {
    const key = generateKey();
    const record: KeyRecord = {
      id: newId("key"),
      accountId,
      hint: keyHint(key),
      scopes: [...scopes],
      createdAt: new Date(),
      expiresAt,
      revokedAt: null,
    };
    await this.db
      .insertInto("api_keys")
      .values({
        id: record.id,
        account_id: accountId,
        key_hash: hashKey(key),
        hint: record.hint,
        scopes: record.scopes,
        expires_at: expiresAt,
        revoked_at: null,
      })
      .execute();
    return { key, record };
  }

  async keys(accountId?: string): Promise<KeyRecord[]> {
    let q = this.db.selectFrom("api_keys").selectAll().orderBy("created_at");
    if (accountId) q = q.where("account_id", "=", accountId);
    return (await q.execute()).map((r) => ({
      id: r.id,
      accountId: r.account_id,
      hint: r.hint,
      scopes: r.scopes.filter(isScope),
      createdAt: r.created_at,
      expiresAt: r.expires_at,
      revokedAt: r.revoked_at,
    }));
  }

  async revokeKey(id: string, at = new Date()): Promise<boolean> {
    return this.changed(
      sql`UPDATE api_keys SET revoked_at = ${at} WHERE id = ${id} AND revoked_at IS NULL RETURNING id`,
      "key",
    );
  }

  /**
   * Run an UPDATE … RETURNING id and announce each changed row to every instance (their caches of verified
   * keys drop it), in the same statement: the notice goes out exactly when the change commits, never for a
   * change that did not happen.
   */
  private async changed(
    update: RawBuilder<unknown>,
    what: "key" | "account",
    also: RawBuilder<unknown> = sql``,
  ): Promise<boolean> {
    const r = await sql<{ id: string }>`
      WITH changed AS (${update})${also}
      SELECT id, pg_notify(${KEY_NOTICES}, json_build_object(${what}::text, id)::text) FROM changed`.execute(
      this.db,
    );
    return r.rows.length > 0;
  }

  /** The key with this hash, with its account (one query on the hot path). */
  async keyByHash(hash: string) {
    return this.keyQuery().where("api_keys.key_hash", "=", hash).executeTakeFirst();
  }

  /** The keys with these hashes, each with its account, in one query (for lookups made together). */
  async keyRows(hashes: readonly string[]) {
    // One text for any number of hashes, compiled once, so that the database parses it once too (see
    // prepared-statements.ts); $1 is the array of hashes.
    const text = (this.keyRowsText ??= prepared(this.keyRowsQuery().compile().sql));
    const { rows } = await this.db.executeQuery<
      InferResult<ReturnType<AccountStore["keyRowsQuery"]>>[number]
    >(CompiledQuery.raw(text, [[...hashes]]));
    return new Map(rows.map(({ key_hash, ...row }) => [key_hash, row]));
  }

  private keyRowsText: string | undefined;

  /** The lookup by an array of hashes: only its text is used (compiled once); the array goes as $1. */
  private keyRowsQuery() {
    return this.keyQuery()
      .select("api_keys.key_hash")
      .where(sql<boolean>`api_keys.key_hash = any(${[] as string[]}::text[])`);
  }

  private keyQuery() {
    return this.db
      .selectFrom("api_keys")
      .innerJoin("accounts", "accounts.id", "api_keys.account_id")
      .select([
        "api_keys.id as keyId",
        "api_keys.scopes",
        "api_keys.expires_at",
        "api_keys.revoked_at",
        "accounts.id as accountId",
        "accounts.name",
        "accounts.plan",
        "accounts.github_login",
      ]);
  }

  /** Tasks counted this period: the counter, or the ledger's sum where no counter exists yet. */
  async used(accountId: string, period: string): Promise<number> {
    const row = await this.db
      .selectFrom("usage_counters")
      .select("used")
      .where("account_id", "=", accountId)
      .where("period", "=", period)
      .executeTakeFirst();
    return row ? row.used : this.ledgerTotal(accountId, period);
  }

  /** Tasks in the ledger for a period: the record of truth the counter caches. */
  async ledgerTotal(accountId: string, period: string): Promise<number> {
    const row = await this.db
      .selectFrom("usage_ledger")
      .select(sql<string>`coalesce(sum(quantity), 0)`.as("total"))
      .where("account_id", "=", accountId)
      .where("period", "=", period)
      .executeTakeFirstOrThrow();
    return Number(row.total);
  }

  /**
   * The period on the ledger: tasks counted, what they cost (each at its row's price, in cents) and every plan
   * its rows were counted under (a plan change's row names the plan left). See usage-report.ts.
   */
  async periodBill(
    accountId: string,
    period: string,
  ): Promise<{ tasks: number; taskCents: number; plans: string[] }> {
    const row = await this.db
      .selectFrom("usage_ledger")
      .select([
        sql<string>`coalesce(sum(quantity), 0)`.as("tasks"),
        sql<string>`coalesce(sum(quantity * unit_price_cents), 0)`.as("cents"),
        sql<string[] | null>`array_agg(DISTINCT plan) FILTER (WHERE plan IS NOT NULL)`.as("plans"),
      ])
      .where("account_id", "=", accountId)
      .where("period", "=", period)
      .executeTakeFirstOrThrow();
    return { tasks: Number(row.tasks), taskCents: Number(row.cents), plans: row.plans ?? [] };
  }

  /**
   * Hold one task of a plan's allowance before the work is done (one statement, race-free across
   * instances): true when held, false when the allowance is used up. A hold is turned into a count by
   * `charge(..., { reserved: true })` or given back by `release`.
   */
  async reserve(accountId: string, period: string, allowance: number): Promise<boolean> {
    const r = await this.db.executeQuery<{ account_id: string }>(
      CompiledQuery.raw(HOLD_SQL, [[accountId], period, allowance]),
    );
    return r.rows.length > 0;
  }

  /** `reserve` for several accounts at once, in one statement (each account once): those held. */
  async reserveAll(accountIds: readonly string[], period: string, allowance: number): Promise<Set<string>> {
    const r = await this.db.executeQuery<{ account_id: string }>(
      CompiledQuery.raw(HOLD_SQL, [accountIds, period, allowance]),
    );
    return new Set(r.rows.map((row) => row.account_id));
  }

  /** Give back a hold that was not used (the scoring failed, or another request counted the same key). */
  async release(accountId: string, period: string): Promise<void> {
    await this.db
      .updateTable("usage_counters")
      .set({ used: sql`greatest(used - 1, 0)` })
      .where("account_id", "=", accountId)
      .where("period", "=", period)
      .execute();
  }

  async ledgerEntry(accountId: string, idempotencyKey: string) {
    return this.db
      .selectFrom("usage_ledger")
      .select(["request_hash", "report_id"])
      .where("account_id", "=", accountId)
      .where("idempotency_key", "=", idempotencyKey)
      .executeTakeFirst();
  }

  /**
   * Count one task, race-free across instances: in one transaction, the ledger row (unique on account and
   * idempotency key), the conditional counter update (`used + 1 <= allowance`) and the stored report. If the
   * allowance is used up the transaction rolls back and nothing is counted or stored.
   */
  charge(input: ChargeInput): Promise<ChargeOutcome> {
    return chargeTask(this.db, input);
  }

  async report(id: string) {
    const row = await this.db
      .selectFrom("reports")
      .select(["id", "account_id", "visibility", "report", "created_at"])
      .where("id", "=", id)
      .executeTakeFirst();
    return row && { ...row, report: JSON.parse(row.report) as unknown };
  }

  /**
   * An account's reports, newest first, `limit` of them after the report `after` (the last of the page before: a
   * keyset on (created_at, id), so a page is the same whatever is added meanwhile). Undefined where `after` is not
   * one of the account's reports.
   */
  async reports(accountId: string, limit = 50, after?: string) {
    let q = this.db
      .selectFrom("reports")
      .select(["id", "visibility", "created_at"])
      .where("account_id", "=", accountId);
    if (after !== undefined) {
      const mark = await this.db
        .selectFrom("reports")
        .select("id")
        .where("id", "=", after)
        .where("account_id", "=", accountId)
        .executeTakeFirst();
      if (!mark) return undefined;
      // Compared in the database, at its own precision (a JavaScript Date keeps milliseconds only).
      q = q.where(sql<boolean>`(created_at, id) < (SELECT created_at, id FROM reports WHERE id = ${after})`);
    }
    return q.orderBy("created_at", "desc").orderBy("id", "desc").limit(limit).execute();
  }
}

/**
 * The allowance's hold, as one conditional upsert per account: the counter goes up by one only while it stays
 * within the allowance; an account without a counter this period starts from the ledger's sum. `accounts` is
 * an SQL expression giving one column of account ids, `period` and `allowance` SQL values. Every hold (one
 * account, a batch of accounts, or those the rate allowed, in plan-rate-limit.ts) is this text.
 */
export function holdStatement(accounts: string, period: string, allowance: string): string {
  return `
    INSERT INTO usage_counters (account_id, period, used)
    SELECT a.id, ${period}, s.total + 1 FROM ${accounts} AS a(id) CROSS JOIN LATERAL (
      SELECT coalesce(sum(quantity), 0)::int AS total FROM usage_ledger
      WHERE account_id = a.id AND period = ${period}
    ) s WHERE s.total + 1 <= ${allowance}
    ON CONFLICT (account_id, period) DO UPDATE SET used = usage_counters.used + 1
    WHERE usage_counters.used + 1 <= ${allowance}
    RETURNING account_id`;
}

/** $1 the accounts (each once), $2 the period, $3 the allowance: those held are returned. */
const HOLD_SQL = prepared(holdStatement("unnest($1::text[])", "$2::text", "$3::int"));
