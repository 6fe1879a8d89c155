import { sql } from "kysely";
import { StatementBatcher } from "../storage/statement-batcher.js";
import type { Db } from "../storage/tables.js";
import { AccountStore } from "./account-store.js";

type KeyRow = NonNullable<Awaited<ReturnType<AccountStore["keyByHash"]>>>;

/**
 * The account store on the hot path of a busy service: key lookups and allowance holds that arrive together
 * share one statement each (many accounts, each with its own row), so a request with a key not yet in memory, or
 * a Free plan's hold, costs a fraction of a round trip under load. The answers are exactly those of one statement
 * per request: lookups read, and each hold is the same conditional upsert, one row per account and statement.
 */
export class BatchedAccountStore extends AccountStore {
  private readonly lookups: StatementBatcher<null, KeyRow | undefined>;
  private readonly holds: StatementBatcher<{ period: string; allowance: number }, boolean>;

  constructor(db: Db) {
    super(db);
    this.lookups = new StatementBatcher(async (group) => {
      const rows = await this.keyRows(group.map((g) => g.subject));
      return new Map(group.map((g) => [g.subject, rows.get(g.subject)]));
    });
    this.holds = new StatementBatcher(
      async (group) => {
        const { period, allowance } = group[0]!.input;
        const accounts = group.map((g) => g.subject);
        const held = await sql<{ account_id: string }>`
          INSERT INTO usage_counters (account_id, period, used)
          SELECT a.id, ${period}, s.total + 1 FROM unnest(${accounts}::text[]) AS a(id)
          CROSS JOIN LATERAL (
            SELECT coalesce(sum(quantity), 0)::int AS total FROM usage_ledger
            WHERE account_id = a.id AND period = ${period}
          ) s WHERE s.total + 1 <= ${allowance}::int
          ON CONFLICT (account_id, period) DO UPDATE SET used = usage_counters.used + 1
          WHERE usage_counters.used + 1 <= ${allowance}::int
          RETURNING account_id`.execute(this.db);
        const ok = new Set(held.rows.map((r) => r.account_id));
        return new Map(accounts.map((a) => [a, ok.has(a)]));
      },
      (i) => `${i.period}/${i.allowance}`,
    );
  }

  override async keyByHash(hash: string): Promise<KeyRow | undefined> {
    return this.lookups.submit(hash, null);
  }

  override async reserve(accountId: string, period: string, allowance: number): Promise<boolean> {
    return this.holds.submit(accountId, { period, allowance });
  }
}
