import { describe, expect, it } from "@jest/globals";
import { DEFAULT_APPROVAL_POLICY } from "../../src/core/approval.js";
import { ScoreRequestSchema } from "../../src/core/task-request.schema.js";
import { buildServer } from "../../src/http/build-server.js";
import { quickScoreRequest } from "../../src/core/task-request.schema.js";
import { createScorer } from "../../src/llm/create-scorer.js";

/** A small deterministic generator (mulberry32), so a failure names a body that can be run again. */
function random(seed: number) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const TEXTS = [
  "Refactor",
  "",
  " ",
  "\t\n ",
  "\u00a0",
  "\u2028",
  "\ufeff",
  "x y",
  "😀",
  "😀".repeat(200),
  "a".repeat(256),
  "a".repeat(257),
  "😀".repeat(129),
  "é".repeat(300),
  "b".repeat(65_536),
  "b".repeat(65_537),
  "diff --git a/x b/x\n--- a/x\n+++ b/x\n",
];
const VALUES: unknown[] = [...TEXTS, null, undefined, 0, 1, true, false, [], {}, ["x"], { task: "x" }];
const KEYS = ["task", "description", "diff", "other", "constructor", "toString"];

function body(next: () => number): unknown {
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(next() * xs.length)]!;
  if (next() < 0.05) return pick(VALUES);
  const out: Record<string, unknown> = {};
  // Mostly the common shapes, { task } and { task, description }, with every kind of value in them.
  if (next() < 0.9) out.task = next() < 0.7 ? pick(TEXTS) : pick(VALUES);
  if (next() < 0.6) out.description = pick(VALUES);
  if (next() < 0.15) out[pick(KEYS)] = pick(VALUES);
  // As a JSON body arrives (no undefined values); sometimes with the keys in the other order.
  const parsed = JSON.parse(JSON.stringify(out)) as Record<string, unknown>;
  return next() < 0.2 ? Object.fromEntries(Object.entries(parsed).reverse()) : parsed;
}

describe("the quick check of a score request", () => {
  it("accepts only bodies zod accepts, and gives exactly zod's value for them (5,000 generated bodies)", () => {
    const next = random(36);
    let accepted = 0;
    for (let i = 0; i < 5_000; i++) {
      const input = body(next);
      const quick = quickScoreRequest(input);
      if (quick === undefined) continue;
      accepted++;
      const zod = ScoreRequestSchema.safeParse(input);
      expect({ input, success: zod.success }).toEqual({ input, success: true });
      // The same fields, in the same order.
      expect(JSON.stringify(quick)).toBe(JSON.stringify(zod.data));
    }
    // Most common bodies take the quick way (otherwise it is no quicker).
    expect(accepted).toBeGreaterThan(500);
  });

  it("leaves every body it is not sure of to zod", () => {
    for (const input of [
      { task: "   " },
      { task: "" },
      { task: 1 },
      { task: "a".repeat(257) },
      { task: "x", description: 2 },
      { task: "x", description: "b".repeat(65_537) },
      { task: "x", diff: "diff --git a/x b/x\n" },
      { task: "x", other: 1 },
      { description: "x" },
      [{ task: "x" }],
      "x",
      null,
      Object.assign(Object.create({ inherited: 1 }) as object, { task: "x" }),
    ])
      expect(quickScoreRequest(input)).toBeUndefined();
  });

  it("is checked against the schema's fields: a new one must be added to the quick check first", () => {
    expect(Object.keys(ScoreRequestSchema.shape)).toEqual(["task", "description", "diff"]);
  });

  it("is what POST /score-task uses, and zod's answers and messages stand for anything else", async () => {
    const app = await buildServer({
      scorer: createScorer({ scorer: "offline" }).scorer,
      policy: DEFAULT_APPROVAL_POLICY,
      logger: false,
    });
    const post = (payload: unknown) =>
      app.inject({ method: "POST", url: "/score-task", payload: payload as object });
    const ok = await post({ task: "Add CSV export", description: null });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toMatchObject({ task: "Add CSV export", description: "" });
    const blank = await post({ task: "  " });
    expect(blank.statusCode).toBe(400);
    expect(blank.body).toContain("`task` must not be empty or only whitespace.");
    const long = await post({ task: "a".repeat(257) });
    expect(long.statusCode).toBe(400);
    expect(long.body).toContain("`task` must be at most 256 characters");
    // 256 emoji are 512 UTF-16 units but 256 characters: zod counts them and lets them through.
    const emoji = await post({ task: "😀".repeat(256) });
    expect(emoji.statusCode).toBe(200);
    await app.close();
  });
});
