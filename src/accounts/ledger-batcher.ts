import { CompiledQuery, sql } from "kysely";
import { prepared } from "../storage/prepared-statements.js";
import type { Db } from "../storage/tables.js";
import type { ChargeInput, ChargeOutcome } from "./charge-task.js";
import { newId } from "./record-ids.js";

/** A charge as `chargeTask` takes it, by account id. */
export type BatchedCharge = Omit<ChargeInput, "account"> & { accountId: string };

/** What a batch can answer: the allowance was already held, so never "over_allowance". */
export type BatchedOutcome = Exclude<ChargeOutcome, { outcome: "over_allowance" }>;

interface Pending {
  charge: BatchedCharge;
  reportId: string;
  resolve: (o: BatchedOutcome) => void;
  reject: (err: unknown) => void;
}

/**
 * Group commit of the ledger (Pay-as-you-go and Pro, and Free tasks already held): ledger rows and reports are written in
 * small batches, one statement per batch, instead of one transaction per request. Nothing is fire-and-forget:
 * each caller's promise settles only when the transaction holding its row has committed (or failed, and then
 * nothing of the batch was counted). A plan with an allowance comes here only with its task already held by
 * `reserve` (race-free, before scoring): nothing is left to check row by row.
 *
 * A batch closes after `maxWaitMs` (a few milliseconds: the added latency) or at `maxBatch` rows. While one
 * batch commits, the next fills up, so under load a batch holds what arrived during one commit.
 */
export class LedgerBatcher {
  private queue: Pending[] = [];
  private timer: NodeJS.Timeout | undefined;
  private flushing: Promise<void> = Promise.resolve();
  /** Statements written so far (each holds one batch): for tests and the bench. */
  statements = 0;

  constructor(
    private readonly db: Db,
    private readonly options: { maxWaitMs?: number; maxBatch?: number } = {},
  ) {}

  charge(charge: BatchedCharge): Promise<BatchedOutcome> {
    return new Promise((resolve, reject) => {
      this.queue.push({ charge, reportId: newId("rpt"), resolve, reject });
      if (this.queue.length >= (this.options.maxBatch ?? 64)) this.flushSoon(0);
      else this.flushSoon(this.options.maxWaitMs ?? 2);
    });
  }

  /** Wait for every batch taken so far to settle (shutdown). */
  async drain(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    await this.flush();
  }

  private flushSoon(ms: number): void {
    if (this.timer && ms > 0) return;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.flush();
    }, ms);
  }

  private flush(): Promise<void> {
    // Batches commit one after another, in arrival order; the next one gathers while this one commits.
    this.flushing = this.flushing.then(async () => {
      // At most maxBatch rows a statement (one statement text per size, see prepared-statements.ts); what is
      // left waits for the next statement, at once.
      const batch = this.queue.splice(0, this.options.maxBatch ?? 64);
      if (this.queue.length > 0) this.flushSoon(0);
      if (batch.length > 0) await this.write(batch);
    });
    return this.flushing;
  }

  private async write(batch: Pending[]): Promise<void> {
    let outcomes: Map<Pending, BatchedOutcome>;
    try {
      outcomes = await this.writeRows(batch);
    } catch (err) {
      // One bad row must not fail its neighbours: the batch is retried row by row, and only the rows that
      // fail alone report an error. (Nothing of the failed batch was committed: it was one statement.)
      if (batch.length === 1) batch[0]!.reject(err);
      else for (const p of batch) await this.write([p]);
      return;
    }
    for (const p of batch) p.resolve(outcomes.get(p)!);
  }

  /**
   * The ledger rows and their reports in one statement (a statement is atomic, and commits when it returns):
   * one round trip per batch instead of a transaction's four (begin, two inserts, commit). Unique on
   * (account, idempotency key): a row already counted, or a twin in this very batch, is skipped, with no
   * report stored for it, and the row that was inserted is known by the report id it carries.
   */
  private async writeRows(batch: Pending[]): Promise<Map<Pending, BatchedOutcome>> {
    this.statements++;
    const column = <T>(f: (p: Pending) => T) => batch.map(f);
    // A fixed text per batch size, with nine columns as arrays and each report as a value of its own (a report
    // inside an array would be escaped character by character on the way out): nothing is built per batch.
    const inserted = await this.db.executeQuery<{ report_id: string; used: number | null }>(
      CompiledQuery.raw(chargeBatchSql(batch.length), [
        column((p) => p.charge.accountId),
        column((p) => p.charge.idempotencyKey),
        column((p) => p.charge.period),
        column((p) => p.charge.requestHash),
        column((p) => p.reportId),
        column((p) => p.charge.source),
        column((p) => p.charge.plan.id),
        column((p) => Math.round(p.charge.plan.perTaskUsd * 100)),
        column((p) => p.charge.plan.reports),
        ...column((p) => p.charge.reportJson ?? JSON.stringify(p.charge.report)),
      ]),
    );
    const used = new Map(inserted.rows.map((r) => [r.report_id, r.used ?? 0]));
    const result = new Map<Pending, BatchedOutcome>();
    for (const p of batch)
      if (used.has(p.reportId))
        // Plans without an allowance keep no counter: their answers say 0, as one charge at a time does.
        result.set(p, {
          outcome: "charged",
          reportId: p.reportId,
          used: p.charge.reserved ? used.get(p.reportId)! : 0,
        });
    const skipped = batch.filter((p) => !used.has(p.reportId));
    if (skipped.length > 0) {
      const prior = await this.db
        .selectFrom("usage_ledger")
        .select(["account_id", "idempotency_key", "report_id", "request_hash"])
        .where(
          sql<boolean>`(account_id, idempotency_key) in (${sql.join(
            skipped.map((p) => sql`(${p.charge.accountId}, ${p.charge.idempotencyKey})`),
          )})`,
        )
        .execute();
      const byKey = new Map(prior.map((r) => [`${r.account_id}\u0000${r.idempotency_key}`, r]));
      for (const p of skipped) {
        const r = byKey.get(`${p.charge.accountId}\u0000${p.charge.idempotencyKey}`);
        result.set(p, {
          outcome: "duplicate",
          reportId: r?.report_id ?? null,
          requestHash: r?.request_hash ?? "",
        });
      }
    }
    return result;
  }
}

/** The ledger rows and their reports in one statement (see LedgerBatcher.writeRows), by batch size. */
const chargeBatchTexts = new Map<number, string>();

function chargeBatchSql(rows: number): string {
  let text = chargeBatchTexts.get(rows);
  if (text) return text;
  const reports = Array.from({ length: rows }, (_, i) => `(${i + 1}, $${10 + i}::text)`).join(", ");
  text = `
  WITH input AS (
    SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[],
                         $8::int[], $9::text[]) WITH ORDINALITY
      AS t(account_id, idempotency_key, period, request_hash, report_id, source, plan, unit_price_cents,
           visibility, n)
  ), report_texts (n, report) AS (VALUES ${reports}
  ), counted AS (
    INSERT INTO usage_ledger (account_id, idempotency_key, period, request_hash, report_id, source, plan,
                              unit_price_cents)
    SELECT account_id, idempotency_key, period, request_hash, report_id, source, plan, unit_price_cents
    FROM input
    ON CONFLICT (account_id, idempotency_key) DO NOTHING
    RETURNING report_id
  ), stored AS (
    INSERT INTO reports (id, account_id, visibility, report)
    SELECT input.report_id, input.account_id, input.visibility, report_texts.report
    FROM input JOIN counted ON counted.report_id = input.report_id JOIN report_texts ON report_texts.n = input.n
    RETURNING id
  )
  -- A held task's answer says how much of the allowance is used: its counter, raised by the hold (committed
  -- before this statement began, so this statement's snapshot sees it).
  SELECT stored.id AS report_id, usage_counters.used
  FROM stored JOIN input ON input.report_id = stored.id
  LEFT JOIN usage_counters
    ON usage_counters.account_id = input.account_id AND usage_counters.period = input.period`;
  prepared(text);
  chargeBatchTexts.set(rows, text);
  return text;
}
