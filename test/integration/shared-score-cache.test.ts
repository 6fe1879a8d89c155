import { afterAll, beforeAll, expect, it } from "@jest/globals";
import { DEFAULT_APPROVAL_POLICY } from "../../src/core/approval.js";
import { ScorerUnavailableError } from "../../src/core/errors.js";
import { scoreOffline } from "../../src/core/offline/offline-scorer.js";
import type { Scorer } from "../../src/core/scorer.js";
import { sharedScoreCache } from "../../src/fleet/shared-score-cache.js";
import { buildServer } from "../../src/http/build-server.js";
import { openDatabase, type Database } from "../../src/storage/database.js";
import { freshDatabase } from "../helpers/postgres.js";
import { describeUnless, missingEnv } from "../helpers/skip.js";

describeUnless(missingEnv(["DATABASE_URL"]), "a model's verdicts shared by two instances", () => {
  let db: Awaited<ReturnType<typeof freshDatabase>>;
  const dbs: Database[] = [];
  let calls = 0;
  let failNext = false;
  // A stand-in for a slow, paid model.
  const model: Scorer = {
    name: "model",
    async score(input) {
      calls++;
      await new Promise((r) => setTimeout(r, 300));
      if (failNext) {
        failNext = false;
        throw new ScorerUnavailableError("The model provider is unreachable.");
      }
      return scoreOffline(input);
    },
  };
  const instances: Awaited<ReturnType<typeof buildServer>>[] = [];

  beforeAll(async () => {
    db = await freshDatabase();
    for (let i = 0; i < 2; i++) {
      const d = await openDatabase({ url: db.url });
      dbs.push(d);
      instances.push(
        await buildServer({
          scorer: sharedScoreCache(model, d.db, { ttlMs: 60_000, pollMs: 20 }),
          policy: DEFAULT_APPROVAL_POLICY,
        }),
      );
    }
  });
  afterAll(async () => {
    for (const i of instances) await i.close();
    for (const d of dbs) await d.close();
    await db?.drop();
  });

  const post = (i: number, task: string) =>
    instances[i]!.inject({
      method: "POST",
      url: "/score-task",
      headers: { "content-type": "application/json" },
      payload: { task },
    });

  it("identical requests at the same moment on two instances make one scoring", async () => {
    calls = 0;
    const [a, b] = await Promise.all([post(0, "Add CSV export"), post(1, "Add CSV export")]);
    expect([a.statusCode, b.statusCode]).toEqual([200, 200]);
    expect(calls).toBe(1);
    expect(a.json().expertScores).toEqual(b.json().expertScores);
    // And later, on either instance, from the cache.
    await post(1, "Add CSV export");
    expect(calls).toBe(1);
  });

  it("a failed scoring leaves no claim behind: the next request scores", async () => {
    calls = 0;
    failNext = true;
    expect((await post(0, "Add dark mode")).statusCode).toBe(503);
    expect((await post(1, "Add dark mode")).statusCode).toBe(200);
    expect(calls).toBe(2);
  });
});
