import type { PersonaId } from "./personas.js";
import type { RepositoryCalibration } from "./offline/calibration.js";
import type { TaskInput } from "./task-request.schema.js";

/** One persona's judgement, as a scorer produces it. */
export interface PersonaVerdict {
  persona: PersonaId;
  /** Integer 1..10. Scorers must not clamp bad values into range: the core rejects them. */
  score: number;
  reasoning: string;
  /** What produced this verdict, e.g. "offline" or a model name; shown in footers and logs. */
  source?: string;
}

export interface ScoreOptions {
  /** Aborted when the caller no longer needs the result (client gone, shutdown deadline). */
  signal?: AbortSignal;
  /**
   * The report's deadline, in ms from the call: one budget for every model call, retry and backoff
   * of this report. Past it the scorer gives up with a ScorerTimeoutError (504). Unset: the
   * scorer's own default. Scorers that answer at once (offline) ignore it.
   */
  timeoutMs?: number;
  /**
   * What was learned from the task's repository's own closed issues (src/learning), if anything: the offline
   * judge reads the kind and the chance of acceptance through it. Model scorers ignore it.
   */
  calibration?: RepositoryCalibration | undefined;
}

/**
 * Running totals since start that a scorer may offer; the metrics read them at scrape time. A scorer
 * reports only what it counts: a missing field is shown as zero.
 */
export interface ScorerStats {
  /** Calls to a model provider. */
  modelCalls?: number;
  promptTokens?: number;
  completionTokens?: number;
  /** Answers from a cache instead of scoring, by cache: persona verdicts (llm), whole reports (offline memo). */
  cacheHits?: { llm?: number; offline?: number };
}

/**
 * Anything that can judge a task from the five personas' angles: the embedded offline scorer and
 * the LLM scorer both implement this. It returns all five verdicts or throws a TaskScorerError.
 */
export interface Scorer {
  /** Short name for logs and footers: "offline", "openai". */
  readonly name: string;
  score(task: TaskInput, options?: ScoreOptions): Promise<readonly PersonaVerdict[]>;
  /** Optional: what this scorer has counted since start (metrics). */
  scorerStats?(): ScorerStats;
}
