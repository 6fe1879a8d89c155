import { describe, expect, it } from "@jest/globals";
import { PERSONAS, type Persona, type PersonaId } from "../../src/core/personas.js";
import type { PersonaJudge, PersonaRequest, PersonaResult } from "../../src/llm/model-chain.js";
import { CachedPersonaJudge } from "../../src/llm/persona-verdict-cache.js";
import { startReportBudget } from "../../src/llm/report-budget.js";
import { emptyStats } from "../../src/llm/report-stats.js";

const chains = Object.fromEntries(PERSONAS.map((p) => [p.id, ["m1", "m2"]])) as Record<PersonaId, string[]>;

/** A judge that counts its calls and answers with the model `m1` (or fails, when told to). */
function countingJudge() {
  const judge = {
    calls: 0,
    fail: false as boolean,
    async judge({ persona, task }: PersonaRequest): Promise<PersonaResult> {
      judge.calls++;
      if (judge.fail) throw new Error("model down");
      return {
        verdict: { persona: persona.id, score: 7, reasoning: "A clear reason.", source: "m1" },
        model: "m1",
        cached: false,
        truncated: task.truncated,
        latencyMs: 3,
      };
    },
  };
  return judge satisfies PersonaJudge;
}

function request(persona: Persona = PERSONAS[0]!, description = "", truncated = false): PersonaRequest {
  const { budget, end } = startReportBudget(1_000);
  end();
  return {
    persona,
    input: { task: "Add dark mode", description },
    task: { text: "…", truncated },
    stats: emptyStats(),
    budget,
  };
}

describe("CachedPersonaJudge", () => {
  const options = (now = () => 0) => ({ maxEntries: 10, ttlMs: 1_000, now, chains, maxInputTokens: 100 });

  it("a persona's verdict is asked once, then answered from the cache and counted", async () => {
    const inner = countingJudge();
    const cached = new CachedPersonaJudge(inner, options());
    const first = await cached.judge(request());
    const again = request(PERSONAS[0]!, "", true);
    const second = await cached.judge(again);
    expect(inner.calls).toBe(1);
    expect(first.cached).toBe(false);
    expect(second).toMatchObject({ cached: true, model: "m1", truncated: true, verdict: first.verdict });
    expect(again.stats.cacheHits).toBe(1);
  });

  it("by persona and input: another persona or description asks again", async () => {
    const inner = countingJudge();
    const cached = new CachedPersonaJudge(inner, options());
    await cached.judge(request(PERSONAS[0]!));
    await cached.judge(request(PERSONAS[1]!));
    await cached.judge(request(PERSONAS[0]!, "other"));
    expect(inner.calls).toBe(3);
  });

  it("failures are not cached, and entries expire after the TTL", async () => {
    let now = 0;
    const inner = countingJudge();
    const cached = new CachedPersonaJudge(
      inner,
      options(() => now),
    );
    inner.fail = true;
    await expect(cached.judge(request())).rejects.toThrow("model down");
    inner.fail = false;
    await cached.judge(request());
    await cached.judge(request());
    expect(inner.calls).toBe(2);
    now += 1_001;
    await cached.judge(request());
    expect(inner.calls).toBe(3);
  });

  it("clear() and maxEntries 0 leave nothing cached", async () => {
    const inner = countingJudge();
    const cached = new CachedPersonaJudge(inner, options());
    await cached.judge(request());
    cached.clear();
    await cached.judge(request());
    const off = new CachedPersonaJudge(inner, { ...options(), maxEntries: 0 });
    await off.judge(request());
    await off.judge(request());
    expect(inner.calls).toBe(4);
  });
});
