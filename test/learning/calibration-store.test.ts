import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { CalibrationStore } from "../../src/learning/calibration-store.js";
import { openDatabase, type Database } from "../../src/storage/database.js";

describe("the calibrations an instance keeps in memory", () => {
  let database: Database;
  beforeAll(async () => {
    database = await openDatabase({ dataDir: "memory://" });
  });
  afterAll(async () => database.close());

  it("are bounded: webhooks from more repositories than it keeps never grow the cache past its bound", async () => {
    const store = new CalibrationStore(database.db, Date.now, 3);
    for (const name of ["a/one", "a/two", "a/three", "a/four", "a/five"]) {
      expect(await store.get(name)).toBeUndefined();
    }
    expect(store.cachedRepositories).toBe(3);
  });

  it("keep the repositories used most recently", async () => {
    const store = new CalibrationStore(database.db, () => 0, 2);
    await store.get("b/one");
    await store.get("b/two");
    await store.get("b/one"); // used again: b/two is now the least recently used
    await store.get("b/three");
    // b/one is still answered from memory (the clock stands still, so nothing is checked again); b/two is not.
    const select = database.db.selectFrom.bind(database.db);
    let reads = 0;
    database.db.selectFrom = ((...args: Parameters<typeof select>) => {
      reads++;
      return select(...args);
    }) as typeof select;
    try {
      await store.get("b/one");
      expect(reads).toBe(0);
      await store.get("b/two");
      expect(reads).toBe(1);
    } finally {
      database.db.selectFrom = select;
    }
  });
});
