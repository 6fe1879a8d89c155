import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { ScorerUnavailableError } from "../../src/core/errors.js";
import { scoreOffline } from "../../src/core/offline/offline-scorer.js";
import type { PersonaVerdict, Scorer } from "../../src/core/scorer.js";
import {
  sharedScoreCache,
  sharedScoreCacheOn,
  type ScoreClaims,
} from "../../src/fleet/shared-score-cache.js";
import { openDatabase, type Database } from "../../src/storage/database.js";

const TASK = { task: "Add CSV export", description: "" };

/** A stand-in for a slow, paid model that counts its calls and can be told to fail once. */
function slowModel(delayMs = 30) {
  const model = {
    calls: 0,
    failNext: false,
    scorer: {
      name: "model",
      async score(input) {
        model.calls++;
        await new Promise((r) => setTimeout(r, delayMs));
        if (model.failNext) {
          model.failNext = false;
          throw new ScorerUnavailableError("The model provider is unreachable.");
        }
        return scoreOffline(input);
      },
    } as Scorer,
  };
  return model;
}

/** Claims kept in a Map: what one database row per key would hold, without expiry. */
function memoryClaims() {
  const rows = new Map<string, readonly PersonaVerdict[] | null>();
  const claims: ScoreClaims = {
    fresh: async (key) => rows.get(key) ?? undefined,
    claim: async (key) => {
      if (rows.has(key)) return false;
      rows.set(key, null);
      return true;
    },
    release: async (key) => {
      if (rows.get(key) === null) rows.delete(key);
    },
    fill: async (key, verdicts) => {
      rows.set(key, verdicts);
    },
  };
  return { rows, claims };
}

describe("sharedScoreCacheOn (claims faked)", () => {
  it("scores once, then answers from the stored verdicts", async () => {
    const model = slowModel();
    const { claims, rows } = memoryClaims();
    const cache = sharedScoreCacheOn(model.scorer, claims, { pollMs: 5 });
    expect(cache.name).toBe("model");
    const first = await cache.score(TASK);
    const second = await cache.score(TASK);
    expect(second).toEqual(first);
    expect(model.calls).toBe(1);
    expect([...rows.values()][0]).toEqual(first);
  });

  it("a second caller waits for the claim holder's verdicts instead of scoring", async () => {
    const model = slowModel(50);
    const { claims } = memoryClaims();
    const a = sharedScoreCacheOn(model.scorer, claims, { pollMs: 5 });
    const b = sharedScoreCacheOn(model.scorer, claims, { pollMs: 5 });
    const [x, y] = await Promise.all([a.score(TASK), b.score(TASK)]);
    expect(y).toEqual(x);
    expect(model.calls).toBe(1);
  });

  it("a failed scoring releases its claim and the error reaches the caller", async () => {
    const model = slowModel();
    const { claims, rows } = memoryClaims();
    const cache = sharedScoreCacheOn(model.scorer, claims, {});
    model.failNext = true;
    await expect(cache.score(TASK)).rejects.toBeInstanceOf(ScorerUnavailableError);
    expect(rows.size).toBe(0);
    await cache.score(TASK);
    expect(model.calls).toBe(2);
  });

  it("verdicts that cannot be stored are still returned", async () => {
    const model = slowModel();
    const { claims } = memoryClaims();
    const cache = sharedScoreCacheOn(
      model.scorer,
      {
        ...claims,
        fill: async () => {
          throw new Error("disk full");
        },
      },
      {},
    );
    await expect(cache.score(TASK)).resolves.toHaveLength(5);
  });

  it("a waiter whose deadline comes before the holder's verdicts scores it itself", async () => {
    const model = slowModel(5);
    let polls = 0;
    // Every key is held by an instance that never answers.
    const held: ScoreClaims = {
      fresh: async () => {
        polls++;
        return undefined;
      },
      claim: async () => false,
      release: async () => {},
      fill: async () => {},
    };
    const cache = sharedScoreCacheOn(model.scorer, held, { pollMs: 20 });
    await expect(cache.score(TASK, { timeoutMs: 50 })).resolves.toHaveLength(5);
    expect(model.calls).toBe(1);
    expect(polls).toBeGreaterThan(1);
  });
});

describe("sharedScoreCache over the database (PGlite in memory)", () => {
  let database: Database;
  beforeAll(async () => {
    database = await openDatabase({ dataDir: "memory://" });
  });
  afterAll(async () => {
    await database?.close();
  });

  it("two instances on one database: identical requests at once make one scoring", async () => {
    const model = slowModel(100);
    const a = sharedScoreCache(model.scorer, database.db, { ttlMs: 60_000, pollMs: 10 });
    const b = sharedScoreCache(model.scorer, database.db, { ttlMs: 60_000, pollMs: 10 });
    const [x, y] = await Promise.all([a.score(TASK), b.score(TASK)]);
    expect(y).toEqual(x);
    expect(model.calls).toBe(1);
    await b.score(TASK);
    expect(model.calls).toBe(1);
  });

  it("a failed scoring leaves no claim behind: the next request scores", async () => {
    const model = slowModel();
    const cache = sharedScoreCache(model.scorer, database.db, { ttlMs: 60_000, pollMs: 10 });
    const input = { task: "Add dark mode", description: "" };
    model.failNext = true;
    await expect(cache.score(input)).rejects.toBeInstanceOf(ScorerUnavailableError);
    await expect(cache.score(input)).resolves.toHaveLength(5);
    expect(model.calls).toBe(2);
  });
});
