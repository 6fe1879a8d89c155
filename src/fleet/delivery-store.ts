import { sql } from "kysely";
import type { Db } from "../storage/database.js";

/** One accepted webhook delivery, as GitHub sent it. */
export interface Delivery {
  /** Hook id and delivery GUID: every hook of one event shares the GUID, and a redelivery reuses it. */
  id: string;
  guid: string;
  event: string;
  payload: unknown;
}

/**
 * Delivery records in the database: written before GitHub gets its 200, so nothing acknowledged is lost,
 * and unique on their id, so a redelivery or a second hook's copy is recognised by every instance.
 */
export class DeliveryStore {
  constructor(private readonly db: Db) {}

  /** Record a delivery; false when it was already recorded (a duplicate). */
  async accept(d: Delivery): Promise<boolean> {
    const r = await this.db
      .insertInto("webhook_deliveries")
      .values({ id: d.id, event: d.event, payload: JSON.stringify({ guid: d.guid, body: d.payload }) })
      .onConflict((oc) => oc.column("id").doNothing())
      .returning("id")
      .executeTakeFirst();
    return r !== undefined;
  }

  async load(id: string): Promise<Delivery | undefined> {
    const row = await this.db
      .selectFrom("webhook_deliveries")
      .select(["id", "event", "payload"])
      .where("id", "=", id)
      .executeTakeFirst();
    if (!row) return undefined;
    const p = row.payload as { guid: string; body: unknown };
    return { id: row.id, guid: p.guid, event: row.event, payload: p.body };
  }

  async started(id: string): Promise<number> {
    const r = await this.db
      .updateTable("webhook_deliveries")
      .set({ status: "running", attempts: sql`attempts + 1` })
      .where("id", "=", id)
      .returning("attempts")
      .executeTakeFirst();
    return r?.attempts ?? 1;
  }

  async finished(id: string, error?: string): Promise<void> {
    await this.db
      .updateTable("webhook_deliveries")
      .set({ status: error ? "failed" : "done", finished_at: new Date(), last_error: error ?? null })
      .where("id", "=", id)
      .execute();
  }

  /** Deliveries accepted but never finished (a process that died): to be handled again. */
  async unfinished(limit = 1000): Promise<string[]> {
    const rows = await this.db
      .selectFrom("webhook_deliveries")
      .select("id")
      .where("status", "in", ["queued", "running"])
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
