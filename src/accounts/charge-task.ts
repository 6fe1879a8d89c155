import { sql } from "kysely";
import type { Plan } from "../core/plans.js";
import type { Db } from "../storage/tables.js";
import type { Account } from "./account.js";
import { newId } from "./record-ids.js";

export interface ChargeInput {
  account: Account;
  plan: Plan;
  period: string;
  idempotencyKey: string;
  requestHash: string;
  source: "api" | "app";
  report: unknown;
  /** The report as JSON, when the caller has it already (it answers with the same text it stores). */
  reportJson?: string | undefined;
  /** The allowance was held by `reserve` before scoring: count without raising the counter again. */
  reserved?: boolean;
}

export type ChargeOutcome =
  | { outcome: "charged"; reportId: string; used: number }
  | { outcome: "duplicate"; reportId: string | null; requestHash: string }
  | { outcome: "over_allowance" };

/** Thrown inside the transaction to roll it back when the allowance is used up; never leaves this module. */
class OverAllowance extends Error {}

/**
 * Count one task, race-free across instances: in one transaction, the ledger row (unique on account and
 * idempotency key), the conditional counter update (`used + 1 <= allowance`) and the stored report. If the
 * allowance is used up the transaction rolls back and nothing is counted or stored.
 */
export async function chargeTask(db: Db, input: ChargeInput): Promise<ChargeOutcome> {
  const reportId = newId("rpt");
  try {
    return await db.transaction().execute(async (tx) => {
      const inserted = await tx
        .insertInto("usage_ledger")
        .values({
          account_id: input.account.id,
          idempotency_key: input.idempotencyKey,
          period: input.period,
          request_hash: input.requestHash,
          report_id: reportId,
          source: input.source,
          plan: input.plan.id,
          unit_price_cents: Math.round(input.plan.perTaskUsd * 100),
        })
        .onConflict((oc) => oc.columns(["account_id", "idempotency_key"]).doNothing())
        .returning("idempotency_key")
        .executeTakeFirst();
      if (!inserted) {
        const prior = await tx
          .selectFrom("usage_ledger")
          .select(["report_id", "request_hash"])
          .where("account_id", "=", input.account.id)
          .where("idempotency_key", "=", input.idempotencyKey)
          .executeTakeFirstOrThrow();
        return {
          outcome: "duplicate" as const,
          reportId: prior.report_id,
          requestHash: prior.request_hash,
        };
      }
      // One statement: create the month's counter at 1, or raise it while it stays within the allowance
      // (the row lock of ON CONFLICT DO UPDATE makes concurrent raises take turns). A plan without an
      // allowance has nothing to enforce: it keeps no counter, so its requests do not queue on one row
      // (its usage is the ledger's sum either way).
      const allowance = input.plan.allowancePerMonth;
      const counted =
        allowance === null
          ? { used: 0 }
          : input.reserved
            ? await tx
                .selectFrom("usage_counters")
                .select("used")
                .where("account_id", "=", input.account.id)
                .where("period", "=", input.period)
                .executeTakeFirst()
            : // A new counter starts from the ledger (this row included), so an account that moved to a
              // plan with an allowance mid-month keeps what it already used.
              (
                await sql<{ used: number }>`
          INSERT INTO usage_counters (account_id, period, used)
          SELECT ${input.account.id}, ${input.period}, s.total FROM (
            SELECT coalesce(sum(quantity), 0)::int AS total FROM usage_ledger
            WHERE account_id = ${input.account.id} AND period = ${input.period}
          ) s WHERE s.total <= ${allowance}::int
          ON CONFLICT (account_id, period) DO UPDATE SET used = usage_counters.used + 1
          WHERE usage_counters.used + 1 <= ${allowance}::int
          RETURNING used`.execute(tx)
              ).rows[0];
      if (!counted) throw new OverAllowance();
      await tx
        .insertInto("reports")
        .values({
          id: reportId,
          account_id: input.account.id,
          visibility: input.plan.reports,
          report: input.reportJson ?? JSON.stringify(input.report),
        })
        .execute();
      return { outcome: "charged" as const, reportId, used: counted.used };
    });
  } catch (err) {
    if (err instanceof OverAllowance) return { outcome: "over_allowance" };
    throw err;
  }
}
