import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import type { Logger } from "pino";
import { RetryLaterError, type DeliveryHandler } from "../../src/fleet/delivery-intake.js";
import { DatabaseDeliveries } from "../../src/fleet/delivery-queues.js";
import { DeliveryStore, type Delivery } from "../../src/fleet/delivery-store.js";
import { StorageError } from "../../src/storage/storage-error.js";
import { openDatabase, type Database } from "../../src/storage/database.js";

const silent = { info() {}, warn() {}, error() {}, debug() {} } as unknown as Logger;
let n = 0;
const delivery = (): Delivery => ({ id: `d-${++n}`, guid: `g-${n}`, event: "issues", payload: { n } });

describe("DatabaseDeliveries (PGlite in memory)", () => {
  let database: Database;
  let store: DeliveryStore;
  beforeAll(async () => {
    database = await openDatabase({ dataDir: "memory://" });
    store = new DeliveryStore(database.db);
  });
  afterAll(async () => {
    await database?.close();
  });

  /** An intake whose handler records what it was given; closed (and so drained) by `settle`. */
  function intake(
    handler: DeliveryHandler,
    options: ConstructorParameters<typeof DatabaseDeliveries>[3] = {},
  ) {
    const seen: [string, number][] = [];
    const deliveries = new DatabaseDeliveries(
      store,
      async (d, attempt) => {
        seen.push([d.id, attempt]);
        await handler(d, attempt);
      },
      silent,
      options,
    );
    return { deliveries, seen, settle: () => deliveries.close(5_000) };
  }

  it("handles an accepted delivery once; a copy of it is a duplicate", async () => {
    const { deliveries, seen, settle } = intake(async () => {});
    const d = delivery();
    expect(await deliveries.accept(d)).toBe("queued");
    await settle();
    expect(seen).toEqual([[d.id, 1]]);
    expect(await deliveries.accept(d)).toBe("duplicate");
    expect(await store.claim(d.id, 1_000)).toBeUndefined(); // done
  });

  it("a failing handler marks the delivery failed; a redelivery runs it again", async () => {
    const first = intake(async () => {
      throw new Error("boom");
    });
    const d = delivery();
    await first.deliveries.accept(d);
    await first.settle();
    const second = intake(async () => {});
    expect(await second.deliveries.accept(d)).toBe("queued");
    await second.settle();
    expect(second.seen).toEqual([[d.id, 2]]);
  });

  it("RetryLaterError puts it back without counting the attempt; start() picks it up", async () => {
    const first = intake(async () => {
      throw new RetryLaterError("busy");
    });
    const d = delivery();
    await first.deliveries.accept(d);
    await first.settle();
    const second = intake(async () => {});
    await second.deliveries.start();
    await second.settle();
    expect(second.seen).toContainEqual([d.id, 1]);
  });

  it("past maxAttempts it gives up and says so instead of handling again", async () => {
    const d = delivery();
    await store.accept(d);
    // Two attempts whose process stopped while handling: their leases ran out. A lease of 0 ms runs out once
    // the database's clock has moved on, which PGlite's does by the millisecond: wait for it between claims.
    const clockMoves = () => new Promise((resolve) => setTimeout(resolve, 5));
    expect(await store.claim(d.id, 0)).toBe(1);
    await clockMoves();
    expect(await store.claim(d.id, 0)).toBe(2);
    await clockMoves();
    const given: [string, number][] = [];
    const { deliveries, seen, settle } = intake(async () => {}, {
      maxAttempts: 2,
      giveUp: async (x, attempts) => {
        given.push([x.id, attempts]);
      },
    });
    await deliveries.start();
    await settle();
    expect(seen.map(([id]) => id)).not.toContain(d.id);
    expect(given).toEqual([[d.id, 2]]);
  });

  it("a delivery that cannot be stored is refused with a StorageError", async () => {
    const broken = new DatabaseDeliveries(
      {
        accept: async () => {
          throw new Error("connection lost");
        },
      } as unknown as DeliveryStore,
      async () => {},
      silent,
    );
    await expect(broken.accept(delivery())).rejects.toBeInstanceOf(StorageError);
  });
});
