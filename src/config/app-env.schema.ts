import { createPrivateKey } from "node:crypto";
import { readFileSync } from "node:fs";
import { z } from "zod";
import { ConfigError } from "../core/errors.js";
import { parseSection } from "./env-parsing.js";

/** The queue's defaults, stated once here (the job queue's own defaults read them). */
export const DEFAULT_JOB_TIMEOUT_MS = 60_000;
/**
 * One installation (one tenant) may hold this many jobs waiting or running; beyond it its deliveries get
 * 503, so that GitHub shows the failure and can redeliver, and other installations keep their room.
 */
export const DEFAULT_MAX_PENDING_PER_INSTALLATION = 100;

/** The App section: the standard Probot variables, the queue's knobs, and how the App is registered. */
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
  /** Log the App's name at start from GitHub's GET /app (or why that failed). */
  APP_STARTUP_CHECK: z.enum(["true", "false"], { error: "expected true or false" }).default("false"),
  /**
   * Octokit's own pacing of GitHub writes (one a second; three seconds between writes that notify
   * people). Keep it on against github.com; `off` is for a stand-in GitHub in tests and benchmarks.
   */
  GITHUB_THROTTLE: z.enum(["on", "off"]).default("on"),
  /** A smee.io channel relaying webhooks to this server in local development (Probot's convention). */
  WEBHOOK_PROXY_URL: z
    .url({ protocol: /^https?$/, error: "expected a URL such as https://smee.io/abc123" })
    .optional(),
  /**
   * Registering the GitHub App from the start page writes credentials into .env, so it is offered only
   * where a stranger cannot reach it: "auto" (the default) offers it while the server listens on loopback
   * only and has no App credentials (not under NODE_ENV=production); "on" offers it on any address (with
   * PUBLIC_URL); "off" never.
   */
  REGISTRATION: z.enum(["auto", "on", "off"]).default("auto"),
  NODE_ENV: z.string().optional(),
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
  return appConfigFromEnv(env).credentials;
}

/** Everything about the GitHub App, whether it runs (credentials) or may be registered from the page. */
export interface AppConfig {
  /** Undefined without credentials: the server is the REST API only. */
  credentials: AppSettings | undefined;
  webhookPath: string;
  ghe: { host: string; protocol: "http" | "https" } | undefined;
  startupCheck: boolean;
  githubThrottle: boolean;
  webhookProxyUrl: string | undefined;
  registration: "auto" | "on" | "off";
  /** NODE_ENV=production: registration is never offered automatically. */
  production: boolean;
}

export function appConfigFromEnv(env: Record<string, string | undefined>): AppConfig {
  const e = parseSection(AppEnvSchema, env, "GitHub App environment", "");
  return {
    credentials: credentialsFrom(e),
    webhookPath: e.WEBHOOK_PATH,
    ghe: e.GHE_HOST ? { host: e.GHE_HOST.trim(), protocol: e.GHE_PROTOCOL } : undefined,
    startupCheck: e.APP_STARTUP_CHECK === "true",
    githubThrottle: e.GITHUB_THROTTLE === "on",
    webhookProxyUrl: e.WEBHOOK_PROXY_URL,
    registration: e.REGISTRATION,
    production: e.NODE_ENV === "production",
  };
}

function credentialsFrom(e: z.output<typeof AppEnvSchema>): AppSettings | undefined {
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
