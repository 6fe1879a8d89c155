import { createPrivateKey } from "node:crypto";
import { readFileSync } from "node:fs";
import { z } from "zod";
import { ConfigError } from "../core/errors.js";
import { DEFAULT_JOB_TIMEOUT_MS, DEFAULT_MAX_PENDING_PER_INSTALLATION } from "../app/job-queue.js";
import { formatIssues } from "./env.schema.js";

/** The standard Probot variables, plus the queue's knobs. */
export const AppEnvSchema = z.object({
  APP_ID: z.string().regex(/^\d+$/, "must be the numeric App ID").optional(),
  PRIVATE_KEY: z.string().optional(),
  PRIVATE_KEY_PATH: z.string().optional(),
  WEBHOOK_SECRET: z.string().optional(),
  WEBHOOK_PATH: z.string().startsWith("/").default("/api/github/webhooks"),
  GHE_HOST: z
    .string()
    .optional()
    .superRefine((v, ctx) => {
      const problem = v === undefined ? undefined : gheHostProblem(v);
      if (problem) ctx.addIssue({ code: "custom", message: problem });
    }),
  GHE_PROTOCOL: z.enum(["http", "https"]).default("https"),
  APP_QUEUE_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(4),
  APP_QUEUE_MAX_PENDING: z.coerce.number().int().min(1).default(1000),
  APP_QUEUE_MAX_PENDING_PER_INSTALLATION: z.coerce
    .number()
    .int()
    .min(1)
    .default(DEFAULT_MAX_PENDING_PER_INSTALLATION),
  /** One job's time limit; its report deadline is this less 10 s kept for the GitHub writes. */
  APP_JOB_TIMEOUT_SECONDS: z.coerce
    .number()
    .min(5)
    .max(3600)
    .default(DEFAULT_JOB_TIMEOUT_MS / 1000),
});

/**
 * GHE_HOST is a host name (and port), as in Probot: `http://host` would otherwise become the API URL
 * `https://http://host/api/v3`. The message shows the form to use instead.
 */
export function gheHostProblem(value: string): string | undefined {
  const v = value.trim();
  const url = /^[a-z][a-z\d+.-]*:\/\//i.test(v) ? safeParse(v) : undefined;
  if (url) {
    const protocol = url.protocol === "http:" ? " GHE_PROTOCOL=http" : "";
    return `must be a host name only, without a scheme or path: use GHE_HOST=${url.host}${protocol}`;
  }
  if (v.includes("/") || /\s/.test(v) || v === "") {
    return `must be a host name only, without a scheme or path: use GHE_HOST=${v.split("/")[0] || "github.example.com"}`;
  }
  return undefined;
}

function safeParse(v: string): URL | undefined {
  try {
    return new URL(v);
  } catch {
    return undefined;
  }
}

/**
 * The key as GitHub gave it (PEM), with literal "\n" from one-line env files, or base64 of the PEM
 * (Probot's convention for hosts without multi-line variables). Parsed now, so a bad key stops the
 * start instead of failing every delivery later.
 */
export function parsePrivateKey(raw: string, variable: string): string {
  let pem = raw.replace(/\\n/g, "\n").trim();
  if (!pem.includes("-----BEGIN")) {
    const decoded = Buffer.from(pem, "base64").toString("utf8");
    if (decoded.includes("-----BEGIN")) pem = decoded.trim();
  }
  try {
    const key = createPrivateKey(pem);
    if (key.asymmetricKeyType !== "rsa") throw new Error("not RSA");
  } catch {
    throw new ConfigError(
      `${variable} is not a valid private key: use the .pem file GitHub generated for the App (an RSA key from "-----BEGIN RSA PRIVATE KEY-----" to the END line), its text, or its base64.`,
    );
  }
  return `${pem}\n`;
}

export interface AppSettings {
  appId: string;
  privateKey: string;
  webhookSecret: string;
  webhookPath: string;
  /** REST API base URL for GitHub Enterprise Server (or a local stand-in); undefined means github.com. */
  baseUrl?: string | undefined;
  queueConcurrency: number;
  queueMaxPending: number;
  queueMaxPendingPerInstallation: number;
  jobTimeoutMs: number;
}

/**
 * The App runs only when all three credentials are present. None at all means "REST only" (returns
 * undefined); some but not all is a configuration mistake worth stopping for.
 */
export function appSettingsFromEnv(env: Record<string, string | undefined>): AppSettings | undefined {
  const parsed = AppEnvSchema.safeParse(env);
  if (!parsed.success)
    throw new ConfigError(`Invalid GitHub App environment: ${formatIssues(parsed.error)}.`);
  const e = parsed.data;
  let privateKey = e.PRIVATE_KEY;
  if (!privateKey && e.PRIVATE_KEY_PATH) {
    try {
      privateKey = readFileSync(e.PRIVATE_KEY_PATH, "utf8");
    } catch {
      throw new ConfigError(`PRIVATE_KEY_PATH points to ${e.PRIVATE_KEY_PATH}, which cannot be read.`);
    }
  }
  const present = {
    APP_ID: e.APP_ID,
    "PRIVATE_KEY or PRIVATE_KEY_PATH": privateKey,
    WEBHOOK_SECRET: e.WEBHOOK_SECRET,
  };
  const missing = Object.entries(present)
    .filter(([, v]) => !v)
    .map(([k]) => k);
  if (missing.length === 3) return undefined;
  if (missing.length > 0) {
    throw new ConfigError(
      `The GitHub App needs APP_ID, PRIVATE_KEY (or PRIVATE_KEY_PATH) and WEBHOOK_SECRET; missing: ${missing.join(", ")}.`,
    );
  }
  return {
    appId: e.APP_ID!,
    privateKey: parsePrivateKey(privateKey!, e.PRIVATE_KEY ? "PRIVATE_KEY" : "PRIVATE_KEY_PATH"),
    webhookSecret: e.WEBHOOK_SECRET!,
    webhookPath: e.WEBHOOK_PATH,
    baseUrl: e.GHE_HOST ? `${e.GHE_PROTOCOL}://${e.GHE_HOST}/api/v3` : undefined,
    queueConcurrency: e.APP_QUEUE_CONCURRENCY,
    queueMaxPending: e.APP_QUEUE_MAX_PENDING,
    queueMaxPendingPerInstallation: e.APP_QUEUE_MAX_PENDING_PER_INSTALLATION,
    jobTimeoutMs: e.APP_JOB_TIMEOUT_SECONDS * 1000,
  };
}
