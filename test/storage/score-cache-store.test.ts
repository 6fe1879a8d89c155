import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { scoreOffline } from "../../src/core/offline/offline-scorer.js";
import { openDatabase, type Database } from "../../src/storage/database.js";
import { ScoreCacheStore } from "../../src/storage/score-cache-store.js";

const VERDICTS = scoreOffline({ task: "Add CSV export", description: "" });
const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe("ScoreCacheStore (PGlite in memory)", () => {
  let database: Database;
  beforeAll(async () => {
    database = await openDatabase({ dataDir: "memory://" });
  });
  afterAll(async () => {
    await database?.close();
  });

  it("a key is claimed once; its verdicts, once filled, are fresh", async () => {
    const store = new ScoreCacheStore(database.db, { ttlMs: 60_000, staleClaimMs: 60_000 });
    expect(await store.fresh("k1")).toBeUndefined();
    expect(await store.claim("k1")).toBe(true);
    expect(await store.claim("k1")).toBe(false); // another instance holds it
    expect(await store.fresh("k1")).toBeUndefined(); // a claim has no verdicts yet
    await store.fill("k1", VERDICTS);
    expect(await store.fresh("k1")).toEqual(VERDICTS);
    expect(await store.claim("k1")).toBe(false); // fresh verdicts are not claimed over
  });

  it("release drops a claim, never stored verdicts", async () => {
    const store = new ScoreCacheStore(database.db, { ttlMs: 60_000, staleClaimMs: 60_000 });
    await store.claim("k2");
    await store.release("k2");
    expect(await store.claim("k2")).toBe(true);
    await store.fill("k2", VERDICTS);
    await store.release("k2");
    expect(await store.fresh("k2")).toEqual(VERDICTS);
  });

  it("expired verdicts and stale claims are taken over", async () => {
    // Margins of a second and a half: a loaded CI machine may take a few hundred ms between two statements.
    const store = new ScoreCacheStore(database.db, { ttlMs: 1500, staleClaimMs: 1500 });
    await store.claim("k3");
    expect(await store.claim("k3")).toBe(false);
    await pause(1700);
    expect(await store.claim("k3")).toBe(true); // the holder died
    await store.fill("k3", VERDICTS);
    expect(await store.fresh("k3")).toEqual(VERDICTS);
    await pause(1700);
    expect(await store.fresh("k3")).toBeUndefined();
    expect(await store.claim("k3")).toBe(true);
  });
});
