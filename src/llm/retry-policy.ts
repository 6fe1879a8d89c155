import { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError } from "openai";

/** How a failed call counts towards the contract's errors: 502, 503 or 504. */
export type FailureKind = "failed" | "unavailable" | "timeout";

export interface RetryPolicy {
  /** Retries after the first call, shared by every call one persona makes to one model (repair included). */
  maxRetries: number;
  baseDelayMs: number;
  maxDelayMs: number;
  /** A provider asking for a longer wait than this is treated as unavailable now, not waited for. */
  maxRetryAfterMs: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = {
  maxRetries: 2,
  baseDelayMs: 500,
  maxDelayMs: 8_000,
  maxRetryAfterMs: 30_000,
};

/** A call that went wrong, described for a person and for the retry loop. */
export interface CallFailure {
  kind: FailureKind;
  /** Worth the same call again after a pause (429, 5xx, connection trouble, timeout). */
  retryable: boolean;
  /** Another model might do better (model missing, not allowed, bad output); false when the key itself is refused. */
  tryOtherModel: boolean;
  /** What happened, as a sentence fragment: "The model provider rejected the API key (401)". */
  what: string;
  /** What a person can do about it, if anything obvious. */
  advice?: string;
  status?: number;
  retryAfterMs?: number;
}

/** The caller gave up (client disconnected, shutdown): nothing to retry, nothing to fall back to. */
export class CallCancelledError extends Error {
  constructor() {
    super("The scoring request was cancelled before the model answered.");
    this.name = "CallCancelledError";
  }
}

/**
 * Exponential backoff with "equal jitter": at least half the step, so retries never hammer a
 * struggling provider back-to-back, and at most the full step, so parallel personas spread out.
 */
export function backoffDelayMs(retryIndex: number, policy: RetryPolicy, random: () => number): number {
  const step = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** retryIndex);
  return Math.round(step / 2 + random() * (step / 2));
}

/** `retry-after-ms` (OpenAI, Azure) first, then `Retry-After` in seconds or as an HTTP date. */
export function parseRetryAfterMs(
  headers: Headers | undefined,
  now: number = Date.now(),
): number | undefined {
  if (!headers) return undefined;
  const ms = headers.get("retry-after-ms");
  if (ms !== null && ms.trim() !== "") {
    const n = Number(ms);
    if (Number.isFinite(n) && n >= 0) return n;
  }
  const value = headers.get("retry-after");
  if (value === null || value.trim() === "") return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return seconds >= 0 ? seconds * 1000 : undefined;
  const date = Date.parse(value);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - now);
}

/** The errno-style code of a connection failure (ECONNREFUSED, ENOTFOUND...), never its free text. */
function connectionCode(error: unknown): string | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 4 && current && typeof current === "object"; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === "string" && /^E[A-Z_]+$/.test(code)) return code;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

/** What an HTTP status from the provider means, first match wins; the last rule catches the rest. */
const STATUS_RULES: readonly {
  applies: (status: number, code: string | null | undefined) => boolean;
  retryable: boolean;
  /** A fallback model may fare better (it will not with a bad key or no quota). */
  tryOtherModel: boolean;
  what: (model: string, status: number) => string;
  advice: string;
}[] = [
  {
    applies: (s) => s === 401,
    retryable: false,
    tryOtherModel: false,
    what: () => "The model provider rejected the API key (401)",
    advice: "check OPENAI_API_KEY",
  },
  {
    applies: (s) => s === 403,
    retryable: false,
    tryOtherModel: true,
    what: (model) => `The model provider refused access to ${model} (403)`,
    advice: "check the key's permissions for this model",
  },
  {
    applies: (s) => s === 404,
    retryable: false,
    tryOtherModel: true,
    what: (model) => `The model provider does not know the model ${model} (404)`,
    advice: "check OPENAI_MODEL and OPENAI_BASE_URL",
  },
  // OpenAI sends 429 both for "slow down" and for "out of credit"; only the first is worth waiting for.
  {
    applies: (s, code) => s === 429 && code === "insufficient_quota",
    retryable: false,
    tryOtherModel: false,
    what: () => "The model provider reports no quota left for this key (429)",
    advice: "check the account's plan and billing",
  },
  {
    applies: (s) => s === 429,
    retryable: true,
    tryOtherModel: true,
    what: (model) => `The model provider kept rate-limiting requests to ${model} (429)`,
    advice: "try again later or lower OPENAI_MAX_CONCURRENCY",
  },
  {
    applies: (s) => s === 408 || s === 409 || s >= 500,
    retryable: true,
    tryOtherModel: true,
    what: (model, s) => `The model provider kept failing for ${model} (${s})`,
    advice: "try again later",
  },
  {
    applies: () => true,
    retryable: false,
    tryOtherModel: true,
    what: (model, s) => `The model provider refused the request to ${model} (${s})`,
    advice: "check that the model supports structured outputs (json_schema)",
  },
];

/**
 * Sort an error from one model call into the contract's three outcomes. Only the status, a few
 * well-known error codes and our own words are used: upstream bodies can echo prompts or keys.
 */
export function classifyCallError(
  error: unknown,
  ctx: { model: string; timedOut: boolean; timeoutMs: number; now?: number },
): CallFailure {
  const seconds = Math.round(ctx.timeoutMs / 100) / 10;
  if (ctx.timedOut || error instanceof APIConnectionTimeoutError) {
    return {
      kind: "timeout",
      retryable: true,
      tryOtherModel: true,
      what: `The model ${ctx.model} did not answer within ${seconds} s`,
      advice: "try again, or raise OPENAI_TIMEOUT_SECONDS",
    };
  }
  if (error instanceof APIUserAbortError) throw new CallCancelledError();
  if (error instanceof APIConnectionError) {
    const code = connectionCode(error);
    return {
      kind: "unavailable",
      retryable: true,
      tryOtherModel: false,
      what: `The model provider could not be reached${code ? ` (${code})` : ""}`,
      advice: "check OPENAI_BASE_URL and the network",
    };
  }
  if (error instanceof APIError && typeof error.status === "number") {
    const status = error.status;
    const retryAfterMs = parseRetryAfterMs(error.headers as Headers | undefined, ctx.now);
    const rule = STATUS_RULES.find((r) => r.applies(status, error.code))!;
    return {
      status,
      ...(retryAfterMs !== undefined ? { retryAfterMs } : {}),
      kind: "unavailable",
      retryable: rule.retryable,
      tryOtherModel: rule.tryOtherModel,
      what: rule.what(ctx.model, status),
      advice: rule.advice,
    };
  }
  return {
    kind: "failed",
    retryable: false,
    tryOtherModel: true,
    what: `The call to ${ctx.model} failed unexpectedly`,
  };
}

/** A pause that ends early (with CallCancelledError) when the caller gives up. */
export function abortableSleep(ms: number, signal?: AbortSignal): Promise<void> {
  if (signal?.aborted) return Promise.reject(new CallCancelledError());
  if (ms <= 0) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      clearTimeout(timer);
      reject(new CallCancelledError());
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}
