import { createHmac, generateKeyPairSync } from "node:crypto";
import { createRequire } from "node:module";
import pino from "pino";
import { ProbotOctokit } from "probot";
import { composeService, type Service } from "../../src/compose-service.js";
import type { CreatedScorer } from "../../src/llm/create-scorer.js";
import { loadServiceConfig } from "../../src/config/service-config.js";

const require = createRequire(import.meta.url);
const examples = require("@octokit/webhooks-examples/api.github.com/index.json") as {
  name: string;
  examples: Record<string, any>[];
}[];

export const { privateKey: PRIVATE_KEY } = generateKeyPairSync("rsa", {
  modulusLength: 2048,
  privateKeyEncoding: { type: "pkcs8", format: "pem" },
  publicKeyEncoding: { type: "spki", format: "pem" },
});
export const WEBHOOK_SECRET = "test-webhook-secret";
export const INSTALLATION_ID = 2;

/** Retries and throttling off: a failed call fails the test at once instead of waiting. */
export const TestOctokit = ProbotOctokit.defaults((options: any) => ({
  ...options,
  retry: { enabled: false },
  throttle: { ...options.throttle, enabled: false },
}));

/** A real payload from @octokit/webhooks-examples, with an installation added and overrides applied. */
export function payload(
  event: string,
  action: string,
  patch: (p: any) => void = () => {},
): Record<string, any> {
  const group = examples.find((e) => e.name === event);
  const found = group?.examples.find((e) => e.action === action && !(e.pull_request?.draft ?? false));
  if (!found) throw new Error(`no example for ${event}.${action}`);
  const copy = structuredClone(found);
  copy.installation = { id: INSTALLATION_ID, node_id: "MDIzOkludGVncmF0aW9uSW5zdGFsbGF0aW9uMg==" };
  patch(copy);
  return copy;
}

/** `installation.created` for the test installation, with these repositories ("owner/name", public unless said). */
export function installationCreated(
  repos: readonly (string | { full_name: string; private?: boolean })[],
): Record<string, any> {
  return payload("installation", "created", (p) => {
    p.installation = { ...p.installation, id: INSTALLATION_ID };
    p.repositories = repos.map((r, i) => {
      const repo = typeof r === "string" ? { full_name: r, private: false } : r;
      return { id: i + 1, name: repo.full_name.split("/")[1], ...repo };
    });
  });
}

export function sign(body: string): string {
  return "sha256=" + createHmac("sha256", WEBHOOK_SECRET).update(body).digest("hex");
}

export async function startService(
  env: Record<string, string> = {},
  scorer?: CreatedScorer,
  logger: pino.Logger = pino({ level: "silent" }),
): Promise<Service> {
  return composeService(
    loadServiceConfig({
      APP_ID: "123",
      PRIVATE_KEY,
      WEBHOOK_SECRET,
      LOG_LEVEL: "silent",
      SCORER: "offline",
      ...env,
    }),
    { logger, Octokit: TestOctokit, ...(scorer ? { scorer } : {}) },
  );
}

let deliveries = 0;
/** A delivery as GitHub sends it; `signature` overrides the correct one (to test rejection). */
export async function deliver(
  service: Service,
  event: string,
  body: Record<string, any>,
  id = `delivery-${++deliveries}`,
  signature?: string,
  hookId?: string,
) {
  const raw = JSON.stringify(body);
  return service.server.inject({
    method: "POST",
    url: "/api/github/webhooks",
    headers: {
      "content-type": "application/json",
      "x-github-event": event,
      "x-github-delivery": id,
      "x-hub-signature-256": signature ?? sign(raw),
      ...(hookId ? { "x-github-hook-id": hookId } : {}),
    },
    payload: raw,
  });
}

/** A logger that keeps its JSON lines, to check what an operator would read. */
export function capturingLogger(): { logger: pino.Logger; lines: Record<string, any>[] } {
  const lines: Record<string, any>[] = [];
  const logger = pino(
    { level: "debug" },
    { write: (line: string) => void lines.push(JSON.parse(line) as Record<string, any>) },
  );
  return { logger, lines };
}
