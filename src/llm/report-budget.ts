import type { CallFailure } from "./retry-policy.js";

/** One report's budget: every call, retry and backoff of every persona shares it. */
export interface ReportBudget {
  /** Aborted at the deadline, or when the caller gives up. */
  signal: AbortSignal;
  /** Date.now() value past which no call starts and every running call is cut. */
  deadlineAt: number;
  budgetMs: number;
  expired: () => boolean;
}

/**
 * Start the clock of one report: its signal aborts at the deadline or when the caller's signal does.
 * `end()` stops the timer and lets go of the caller's signal once every persona has settled.
 */
export function startReportBudget(
  budgetMs: number,
  callerSignal?: AbortSignal,
): { budget: ReportBudget; end: () => void } {
  const deadlineAt = Date.now() + budgetMs;
  const controller = new AbortController();
  let deadlineHit = false;
  const timer = setTimeout(() => {
    deadlineHit = true;
    controller.abort();
  }, budgetMs);
  const onCallerAbort = () => controller.abort();
  callerSignal?.addEventListener("abort", onCallerAbort, { once: true });
  return {
    budget: {
      signal: controller.signal,
      deadlineAt,
      budgetMs,
      expired: () => deadlineHit || Date.now() >= deadlineAt,
    },
    end: () => {
      clearTimeout(timer);
      callerSignal?.removeEventListener("abort", onCallerAbort);
    },
  };
}

/** A persona's call cut by the report's deadline: not retried, not tried on another model. */
export function deadlineFailure(model: string, budget: ReportBudget): CallFailure {
  return {
    kind: "timeout",
    retryable: false,
    tryOtherModel: false,
    what: `The model ${model} did not answer within the report's deadline of ${Math.round(budget.budgetMs / 100) / 10} s`,
    advice: "try again later",
  };
}
