import { sql, type ExpressionBuilder } from "kysely";
import type { Db, Tables } from "../storage/tables.js";

/** One accepted webhook delivery, as GitHub sent it. */
export interface Delivery {
  /** Hook id and delivery GUID: every hook of one event shares the GUID, and a redelivery reuses it. */
  id: string;
  guid: string;
  event: string;
  payload: unknown;
}

/** Waiting, or held by an instance whose lease has run out (it died): free for an instance to take. */
const available = (eb: ExpressionBuilder<Tables, "webhook_deliveries">) =>
  eb.or([
    eb("status", "=", "queued"),
    eb.and([
      eb("status", "=", "running"),
      eb.or([eb("claimed_until", "is", null), eb("claimed_until", "<", sql<Date>`now()`)]),
    ]),
  ]);

/**
 * Delivery records in the database: written before GitHub gets its 200, so nothing acknowledged is lost,
 * and unique on their id, so a redelivery or a second hook's copy is recognised by every instance.
 */
export class DeliveryStore {
  constructor(private readonly db: Db) {}

  /**
   * Record a delivery. "new": first time; "again": known but not finished (or failed, and now asked for
   * again, as a person's manual redelivery does), so it must be handled; "duplicate": already handled.
   */
  async accept(d: Delivery): Promise<"new" | "again" | "duplicate"> {
    const inserted = await this.db
      .insertInto("webhook_deliveries")
      .values({ id: d.id, event: d.event, payload: JSON.stringify({ guid: d.guid, body: d.payload }) })
      .onConflict((oc) => oc.column("id").doNothing())
      .returning("id")
      .executeTakeFirst();
    if (inserted) return "new";
    const reset = await this.db
      .updateTable("webhook_deliveries")
      .set({ status: "queued", last_error: null })
      .where("id", "=", d.id)
      .where("status", "=", "failed")
      .returning("status")
      .executeTakeFirst();
    if (reset) return "again";
    const row = await this.db
      .selectFrom("webhook_deliveries")
      .select("status")
      .where("id", "=", d.id)
      .executeTakeFirst();
    return row?.status === "queued" ? "again" : "duplicate";
  }

  async load(id: string): Promise<Delivery | undefined> {
    const row = await this.db
      .selectFrom("webhook_deliveries")
      .select(["id", "event", "payload"])
      .where("id", "=", id)
      .executeTakeFirst();
    if (!row) return undefined;
    const p = JSON.parse(row.payload) as { guid: string; body: unknown };
    return { id: row.id, guid: p.guid, event: row.event, payload: p.body };
  }

  /**
   * Take a delivery to handle it, for `leaseMs`: only one instance at a time, and another only once the lease
   * of one that died has run out. Returns the attempt number, or undefined when someone else holds it or it
   * is finished.
   */
  async claim(id: string, leaseMs: number): Promise<number | undefined> {
    const r = await this.db
      .updateTable("webhook_deliveries")
      .set({
        status: "running",
        attempts: sql`attempts + 1`,
        claimed_until: sql`now() + (${Math.round(leaseMs)}::bigint * interval '1 millisecond')`,
      })
      .where("id", "=", id)
      .where(available)
      .returning("attempts")
      .executeTakeFirst();
    return r?.attempts;
  }

  async finished(id: string, error?: string): Promise<void> {
    await this.db
      .updateTable("webhook_deliveries")
      .set({
        status: error ? "failed" : "done",
        finished_at: new Date(),
        last_error: error ?? null,
        claimed_until: null,
      })
      .where("id", "=", id)
      .execute();
  }

  /** Back to the queue after a failed attempt that will be retried. */
  async requeue(id: string, error: string): Promise<void> {
    await this.db
      .updateTable("webhook_deliveries")
      .set({ status: "queued", last_error: error, claimed_until: null })
      .where("id", "=", id)
      .execute();
  }

  /** Back to the queue without counting the attempt (the handler could not take it now). */
  async defer(id: string, reason: string): Promise<void> {
    await this.db
      .updateTable("webhook_deliveries")
      .set({
        status: "queued",
        last_error: reason,
        claimed_until: null,
        attempts: sql`greatest(attempts - 1, 0)`,
      })
      .where("id", "=", id)
      .execute();
  }

  /** Deliveries accepted but not finished and not held by a live instance: to be handled (again). */
  async unfinished(limit = 1000): Promise<string[]> {
    const rows = await this.db
      .selectFrom("webhook_deliveries")
      .select("id")
      .where(available)
      .orderBy("received_at")
      .limit(limit)
      .execute();
    return rows.map((r) => r.id);
  }

  async counts(): Promise<Record<string, number>> {
    const rows = await this.db
      .selectFrom("webhook_deliveries")
      .select(["status", sql<string>`count(*)`.as("n")])
      .groupBy("status")
      .execute();
    return Object.fromEntries(rows.map((r) => [r.status, Number(r.n)]));
  }
}
