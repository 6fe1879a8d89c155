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
        const held = await this.reserveAll(accounts, period, allowance);
        return new Map(accounts.map((a) => [a, held.has(a)]));
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
