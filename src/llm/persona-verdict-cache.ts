import { createHash } from "node:crypto";
import type { PersonaId } from "../core/personas.js";
import type { TaskInput } from "../core/task-request.schema.js";
import { LruCache } from "./lru-cache.js";
import type { PersonaJudge, PersonaRequest, PersonaResult } from "./model-chain.js";
import { promptVersion } from "./persona-messages.js";

export interface PersonaVerdictCacheOptions {
  /** Entries kept; 0 turns the cache off. */
  maxEntries: number;
  ttlMs: number;
  now: () => number;
  /** Part of the key: a verdict from another model chain is not this persona's verdict. */
  chains: Readonly<Record<PersonaId, readonly string[]>>;
  /** Part of the key: a different cut of the description is a different question. */
  maxInputTokens: number;
}

interface CachedVerdict {
  score: number;
  reasoning: string;
  model: string;
}

/**
 * Remembers each persona's model verdict for a while (TTL), by persona, not by report: when one
 * persona failed, the next request asks the model again for that persona only. Offline stand-ins
 * never reach it (they are filled in above the judge), so they are never cached.
 */
export class CachedPersonaJudge implements PersonaJudge {
  private readonly cache: LruCache<CachedVerdict>;

  constructor(
    private readonly inner: PersonaJudge,
    private readonly options: PersonaVerdictCacheOptions,
  ) {
    this.cache = new LruCache({ maxEntries: options.maxEntries, ttlMs: options.ttlMs, now: options.now });
  }

  /** Drop every cached verdict (tests, benchmark). */
  clear(): void {
    this.cache.clear();
  }

  async judge(request: PersonaRequest): Promise<PersonaResult> {
    const { persona, input, task, stats } = request;
    const started = this.options.now();
    const key = this.keyOf(persona.id, input);
    const hit = this.cache.get(key);
    if (hit) {
      stats.cacheHits++;
      return {
        verdict: { persona: persona.id, score: hit.score, reasoning: hit.reasoning, source: hit.model },
        model: hit.model,
        cached: true,
        truncated: task.truncated,
        latencyMs: this.options.now() - started,
      };
    }
    const result = await this.inner.judge(request);
    if (!result.cached)
      this.cache.set(key, {
        score: result.verdict.score,
        reasoning: result.verdict.reasoning,
        model: result.model,
      });
    return result;
  }

  private keyOf(persona: PersonaId, input: TaskInput): string {
    return createHash("sha256")
      .update(
        JSON.stringify([
          persona,
          this.options.chains[persona],
          promptVersion(persona),
          this.options.maxInputTokens,
          input.task,
          input.description,
        ]),
      )
      .digest("hex");
  }
}
