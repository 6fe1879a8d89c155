import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { DeliveryStore, type Delivery } from "../../src/fleet/delivery-store.js";
import { openDatabase, type Database } from "../../src/storage/database.js";

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));
let n = 0;
const delivery = (): Delivery => ({
  id: `hook-${++n}`,
  guid: `guid-${n}`,
  event: "issues",
  payload: { action: "opened", n },
});

describe("DeliveryStore (PGlite in memory)", () => {
  let database: Database;
  let store: DeliveryStore;
  beforeAll(async () => {
    database = await openDatabase({ dataDir: "memory://" });
    store = new DeliveryStore(database.db);
  });
  afterAll(async () => {
    await database?.close();
  });

  it("keeps what GitHub sent, and knows a delivery again by its id", async () => {
    const d = delivery();
    expect(await store.accept(d)).toBe("new");
    expect(await store.load(d.id)).toEqual(d);
    // Accepted, not yet handled: a redelivery must still be handled.
    expect(await store.accept(d)).toBe("again");
    expect(await store.claim(d.id, 60_000)).toBe(1);
    expect(await store.accept(d)).toBe("duplicate"); // being handled
    await store.finished(d.id);
    expect(await store.accept(d)).toBe("duplicate");
    expect(await store.load("no-such-hook")).toBeUndefined();
  });

  it("a failed delivery asked for again is queued again", async () => {
    const d = delivery();
    await store.accept(d);
    await store.claim(d.id, 60_000);
    await store.finished(d.id, "boom");
    expect(await store.accept(d)).toBe("again");
    expect(await store.claim(d.id, 60_000)).toBe(2);
  });

  it("one holder at a time; a lease that ran out is taken over", async () => {
    const d = delivery();
    await store.accept(d);
    // A lease of 2 s: long enough that a loaded machine's pauses between these lines do not end it (50 ms did, on a
    // fresh-clone CI run), short enough to wait out.
    expect(await store.claim(d.id, 2_000)).toBe(1);
    expect(await store.claim(d.id, 2_000)).toBeUndefined();
    expect(await store.unfinished()).not.toContain(d.id);
    await pause(2_100);
    expect(await store.unfinished()).toContain(d.id);
    expect(await store.claim(d.id, 60_000)).toBe(2);
    await store.finished(d.id);
    expect(await store.claim(d.id, 60_000)).toBeUndefined(); // finished
  });

  it("requeue counts the attempt, defer does not", async () => {
    const d = delivery();
    await store.accept(d);
    expect(await store.claim(d.id, 60_000)).toBe(1);
    await store.requeue(d.id, "try again");
    expect(await store.claim(d.id, 60_000)).toBe(2);
    await store.defer(d.id, "not now");
    expect(await store.claim(d.id, 60_000)).toBe(2);
  });

  it("counts deliveries by status", async () => {
    const counts = await store.counts();
    expect(Object.values(counts).reduce((a, b) => a + b, 0)).toBe(n);
    expect(counts.done).toBeGreaterThanOrEqual(2);
  });
});
