import { ScorerTimeoutError } from "../core/errors.js";
import { PERSONAS, type PersonaId } from "../core/personas.js";
import type { PersonaVerdict, ScoreOptions, Scorer } from "../core/scorer.js";
import type { TaskInput } from "../core/task-request.schema.js";
import type { LlmLogger } from "./llm-logger.js";
import type { PersonaJudge, PersonaResult } from "./model-chain.js";
import { fillWithOfflineVerdicts, type OfflineFallback } from "./offline-fallback.js";
import { PersonaFailure, reportError } from "./persona-failures.js";
import { deadlineFailure, startReportBudget } from "./report-budget.js";
import { addStats, emptyStats, type ReportStats } from "./report-stats.js";
import { CallCancelledError } from "./retry-policy.js";

export interface JuryOptions {
  name: string;
  /** Judges one persona (the model chain, behind the verdict cache). */
  judge: PersonaJudge;
  /** The task message each persona's model reads. */
  renderTask: (input: TaskInput) => { text: string; truncated: boolean };
  /** Named in a deadline failure of a persona cut before its model answered. */
  primaryModel: (persona: PersonaId) => string;
  /** The report's deadline when the caller sets none. */
  reportTimeoutMs: number;
  fallback: OfflineFallback;
  /** Running totals, added to once per report. */
  totals: ReportStats;
  log: LlmLogger;
  now: () => number;
}

/**
 * One report: the five personas judged in parallel under one deadline budget. All five verdicts
 * come back, or a typed error naming the persona(s) and the cause is thrown: never a partial
 * report (unless the offline fallback is on).
 */
export class JuryScorer implements Scorer {
  readonly name: string;

  constructor(private readonly options: JuryOptions) {
    this.name = options.name;
  }

  async score(input: TaskInput, options: ScoreOptions = {}): Promise<PersonaVerdict[]> {
    const { judge, log, now } = this.options;
    const started = now();
    const stats = emptyStats();
    const { budget, end } = startReportBudget(
      Math.max(0, options.timeoutMs ?? this.options.reportTimeoutMs),
      options.signal,
    );
    const task = this.options.renderTask(input);
    let settled: PromiseSettledResult<PersonaResult>[];
    try {
      settled = await Promise.allSettled(
        PERSONAS.map((persona) => judge.judge({ persona, input, task, stats, budget })),
      );
    } finally {
      end();
    }
    addStats(this.options.totals, stats);

    // Past the deadline, a persona cut while waiting (for a slot or a backoff) failed by the clock.
    if (budget.expired() && !options.signal?.aborted) {
      settled = settled.map((r, i) =>
        r.status === "rejected" && !(r.reason instanceof PersonaFailure)
          ? {
              status: "rejected",
              reason: new PersonaFailure(
                PERSONAS[i]!,
                deadlineFailure(this.options.primaryModel(PERSONAS[i]!.id), budget),
                [],
              ),
            }
          : r,
      );
    }

    if (
      options.signal?.aborted ||
      settled.some((r) => r.status === "rejected" && r.reason instanceof CallCancelledError)
    ) {
      this.logReport(stats, started, [], "llm scoring cancelled");
      throw new ScorerTimeoutError(
        "Scoring was cancelled before every persona's model answered; no report was made.",
      );
    }

    const results: (PersonaResult | undefined)[] = [];
    const failures: PersonaFailure[] = [];
    settled.forEach((r, i) => {
      if (r.status === "fulfilled") {
        results[i] = r.value;
        return;
      }
      const persona = PERSONAS[i]!;
      const reason: unknown = r.reason;
      if (reason instanceof PersonaFailure) failures.push(reason);
      else {
        // A bug of ours, not the provider's: keep the detail in the log, give the caller a clean 502.
        log.error({ persona: persona.id, err: reason }, "unexpected error while scoring a persona");
        failures.push(
          new PersonaFailure(
            persona,
            {
              kind: "failed",
              retryable: false,
              tryOtherModel: false,
              what: "The LLM scorer failed unexpectedly",
            },
            [],
          ),
        );
      }
    });

    if (failures.length > 0 && this.options.fallback !== "offline") {
      this.logReport(stats, started, results, "llm scoring failed", failures);
      throw reportError(failures);
    }
    const verdicts =
      failures.length > 0
        ? fillWithOfflineVerdicts(input, results, failures, log, options.calibration)
        : results.map((r) => r!.verdict);
    this.logReport(stats, started, results, "llm scoring finished", failures);
    return verdicts;
  }

  private logReport(
    stats: ReportStats,
    started: number,
    results: readonly (PersonaResult | undefined)[],
    msg: string,
    failures: readonly PersonaFailure[] = [],
  ): void {
    this.options.log.info(
      {
        scorer: this.name,
        latencyMs: this.options.now() - started,
        ...stats,
        totalTokens: stats.promptTokens + stats.completionTokens,
        personas: PERSONAS.map((p, i) => {
          const r = results[i];
          const f = failures.find((x) => x.persona.id === p.id);
          return r
            ? {
                persona: p.id,
                model: r.model,
                cached: r.cached,
                latencyMs: r.latencyMs,
                truncated: r.truncated,
              }
            : { persona: p.id, failed: f ? f.failure.kind : "cancelled", modelsTried: f?.modelsTried ?? [] };
        }),
      },
      msg,
    );
  }
}
