import { randomBytes } from "node:crypto";
import { sql } from "kysely";
import type { Db } from "../storage/tables.js";
import type { ChargeInput, ChargeOutcome } from "./charge-task.js";

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
 * small batches, one transaction per batch, instead of one transaction per request. Nothing is fire-and-forget:
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

  constructor(
    private readonly db: Db,
    private readonly options: { maxWaitMs?: number; maxBatch?: number } = {},
  ) {}

  charge(charge: BatchedCharge): Promise<BatchedOutcome> {
    return new Promise((resolve, reject) => {
      this.queue.push({ charge, reportId: newReportId(), resolve, reject });
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
      const batch = this.queue;
      this.queue = [];
      if (batch.length > 0) await this.write(batch);
    });
    return this.flushing;
  }

  private async write(batch: Pending[]): Promise<void> {
    let outcomes: Map<Pending, BatchedOutcome>;
    try {
      outcomes = await this.db.transaction().execute(async (tx) => {
        // Unique on (account, idempotency key): a row already counted, or a twin in this very batch, is
        // skipped, and the row that was inserted is known by the report id it carries.
        const inserted = await tx
          .insertInto("usage_ledger")
          .values(
            batch.map((p) => ({
              account_id: p.charge.accountId,
              idempotency_key: p.charge.idempotencyKey,
              period: p.charge.period,
              request_hash: p.charge.requestHash,
              report_id: p.reportId,
              source: p.charge.source,
              plan: p.charge.plan.id,
              unit_price_cents: Math.round(p.charge.plan.perTaskUsd * 100),
            })),
          )
          .onConflict((oc) => oc.columns(["account_id", "idempotency_key"]).doNothing())
          .returning("report_id")
          .execute();
        const charged = new Set(inserted.map((r) => r.report_id));
        const counted = batch.filter((p) => charged.has(p.reportId));
        if (counted.length > 0)
          await tx
            .insertInto("reports")
            .values(
              counted.map((p) => ({
                id: p.reportId,
                account_id: p.charge.accountId,
                visibility: p.charge.plan.reports,
                report: JSON.stringify(p.charge.report),
              })),
            )
            .execute();
        const result = new Map<Pending, BatchedOutcome>();
        // A held task's answer says how much of the allowance is used (its counter, raised by the hold).
        const held = counted.filter((p) => p.charge.reserved);
        const used = new Map<string, number>();
        if (held.length > 0)
          for (const r of await tx
            .selectFrom("usage_counters")
            .select(["account_id", "period", "used"])
            .where(
              sql<boolean>`(account_id, period) in (${sql.join(
                held.map((p) => sql`(${p.charge.accountId}, ${p.charge.period})`),
              )})`,
            )
            .execute())
            used.set(`${r.account_id}\u0000${r.period}`, r.used);
        for (const p of counted)
          result.set(p, {
            outcome: "charged",
            reportId: p.reportId,
            used: used.get(`${p.charge.accountId}\u0000${p.charge.period}`) ?? 0,
          });
        const skipped = batch.filter((p) => !charged.has(p.reportId));
        if (skipped.length > 0) {
          const prior = await tx
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
      });
    } catch (err) {
      // One bad row must not fail its neighbours: the batch is retried row by row, and only the rows that
      // fail alone report an error. (Nothing of the failed batch was committed.)
      if (batch.length === 1) batch[0]!.reject(err);
      else for (const p of batch) await this.write([p]);
      return;
    }
    for (const p of batch) p.resolve(outcomes.get(p)!);
  }
}

const newReportId = () => `rpt_${randomBytes(9).toString("base64url")}`;
