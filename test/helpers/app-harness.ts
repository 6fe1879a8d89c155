import { createHmac, generateKeyPairSync } from "node:crypto";
import { createRequire } from "node:module";
import pino from "pino";
import { ProbotOctokit } from "probot";
import { composeService, type Service } from "../../src/compose-service.js";
import type { CreatedScorer } from "../../src/llm/create-scorer.js";
import { loadServiceConfig } from "../../src/config/service-config.js";
import { FakeGitHub } from "./fake-github.js";

const require = createRequire(import.meta.url);
/** jest's hooks when this runs under jest; the benchmarks and scripts/eval import this file outside it. */
const jestHooks = process.env.JEST_WORKER_ID ? await import("@jest/globals") : undefined;
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

/**
 * The service composed as `npm start` composes it, with the App's test credentials, the offline scorer and a silent
 * logger unless told; `Octokit` is the test one (no retries, no throttling) unless another is given (the production
 * one, to test GitHub's faults).
 */
export async function startService(
  env: Record<string, string> = {},
  scorer?: CreatedScorer,
  logger: pino.Logger = pino({ level: "silent" }),
  Octokit: typeof TestOctokit = TestOctokit,
): Promise<Service> {
  return watchFailedJobs(
    await composeService(
      loadServiceConfig({
        APP_ID: "123",
        PRIVATE_KEY,
        WEBHOOK_SECRET,
        LOG_LEVEL: "silent",
        SCORER: "offline",
        ...env,
      }),
      { logger, Octokit, ...(scorer ? { scorer } : {}) },
    ),
  );
}

/**
 * Failed App jobs must be asserted. A job that failed (an unexpected GitHub answer, a bug) is otherwise only
 * counted and logged, so a test that checks nothing else passes whether or not the App did its work. Every
 * service started here is watched: after each test (and when the service closes, for jobs that fail while it
 * drains), a failed job that no `expectFailedJobs` accounted for fails the test.
 */
const watched = new Map<Service, { asserted: number }>();

function unasserted(service: Service): number {
  const seen = watched.get(service);
  return seen ? (service.queue?.stats.failed ?? 0) - seen.asserted : 0;
}

function checkFailedJobs(service: Service): void {
  const count = unasserted(service);
  if (count <= 0) return;
  watched.get(service)!.asserted += count;
  throw new Error(
    `${count} App job(s) failed that the test did not expect: assert them with expectFailedJobs(service, n), ` +
      "or find why they failed (an unexpected GitHub answer, say; the job's error is logged at level error)",
  );
}

function watchFailedJobs(service: Service): Service {
  if (!jestHooks) return service;
  watched.set(service, { asserted: 0 });
  const close = service.close.bind(service);
  let closing: Promise<void> | undefined;
  service.close = (graceMs?: number) =>
    (closing ??= close(graceMs).then(() => {
      try {
        checkFailedJobs(service);
      } finally {
        watched.delete(service);
      }
    }));
  return service;
}

/** The test expects exactly `count` jobs of this service to have failed since the last assertion. */
export function expectFailedJobs(service: Service, count: number): void {
  const found = unasserted(service);
  if (found !== count) throw new Error(`expected ${count} failed App job(s), found ${found}`);
  watched.get(service)!.asserted += found;
}

jestHooks?.afterEach(() => {
  const failures: string[] = [];
  for (const service of watched.keys()) {
    try {
      checkFailedJobs(service);
    } catch (err) {
      failures.push((err as Error).message);
    }
  }
  if (failures.length > 0) throw new Error(failures.join("\n"));
});

/**
 * The stand-in GitHub for one test file, the one set-up of it: started before the file's tests (or the
 * describe block's, when called inside one), stopped after them, and emptied after each test unless `keep`.
 */
export function standInGitHub(options: { keep?: boolean } = {}): FakeGitHub {
  if (!jestHooks) throw new Error("standInGitHub is for jest test files");
  const github = new FakeGitHub();
  jestHooks.beforeAll(async () => {
    await github.start();
  });
  jestHooks.afterAll(() => github.close());
  if (!options.keep) jestHooks.afterEach(() => github.reset());
  return github;
}

/** Where a service started by `appWithStandIn` keeps its data: nowhere, PGlite in memory, or a fresh PostgreSQL. */
export type TestStorage = "none" | "pglite" | "postgres";

/**
 * The App in this process against the stand-in GitHub, for one test file (or describe block): the stand-in
 * starts before the tests and stops after them; `start()` starts the service with GHE_HOST pointing at it and
 * the storage asked for (`postgres`: a database of its own in DATABASE_URL's server, per start); after each
 * test, the services started in it are closed, their databases dropped and (unless `keepGitHub`) the stand-in
 * emptied. `service` is the one the test started last.
 */
export function appWithStandIn(options: { keepGitHub?: boolean; storage?: TestStorage } = {}): {
  github: FakeGitHub;
  /** The settings that point the App at the stand-in, with these added. */
  env: (extra?: Record<string, string>) => Record<string, string>;
  start: (
    extra?: Record<string, string>,
    scorer?: CreatedScorer,
    logger?: pino.Logger,
    Octokit?: typeof TestOctokit,
  ) => Promise<Service>;
  /** The service this test started last (start() first). */
  readonly service: Service;
} {
  if (!jestHooks) throw new Error("appWithStandIn is for jest test files");
  const started: Service[] = [];
  const databases: { drop: () => Promise<void> }[] = [];
  // Registered before the stand-in's own hooks: the services close before the stand-in is emptied.
  jestHooks.afterEach(async () => {
    await Promise.all(started.splice(0).map((s) => s.close()));
    await Promise.all(databases.splice(0).map((d) => d.drop()));
  });
  const github = standInGitHub({ keep: options.keepGitHub ?? false });
  const env = (extra: Record<string, string> = {}) => ({
    GHE_HOST: github.host,
    GHE_PROTOCOL: "http",
    ...extra,
  });
  const storageEnv = async (): Promise<Record<string, string>> => {
    if (options.storage === "pglite") return { DATA_DIR: "memory://" };
    if (options.storage !== "postgres") return {};
    const { freshDatabase } = await import("./postgres.js");
    const database = await freshDatabase();
    databases.push(database);
    return { DATABASE_URL: database.url };
  };
  return {
    github,
    env,
    start: async (extra, scorer, logger, Octokit) => {
      const service = await startService(env({ ...(await storageEnv()), ...extra }), scorer, logger, Octokit);
      started.push(service);
      return service;
    },
    get service() {
      const service = started.at(-1);
      if (!service) throw new Error("no service started in this test: call start() first");
      return service;
    },
  };
}

/** What the App needs in a process of its own (the server as a user starts it) to reach the stand-in GitHub. */
export function appProcessEnv(
  github: { host: string },
  extra: Record<string, string> = {},
): Record<string, string> {
  return {
    APP_ID: "123",
    PRIVATE_KEY,
    WEBHOOK_SECRET,
    GHE_HOST: github.host,
    GHE_PROTOCOL: "http",
    SCORER: "offline",
    // The stand-in GitHub has no rate limits to respect: Octokit's pacing of writes (one a second, three seconds
    // between comments) would only make the tests wait, as it is off for the App in the tests' own process.
    GITHUB_THROTTLE: "off",
    ...extra,
  };
}

/** A delivery as GitHub sends it, over HTTP to a server in another process (`base` is its http://host:port). */
export async function deliverOverHttp(
  base: string,
  event: string,
  body: Record<string, any>,
  id: string,
  headers: Record<string, string> = {},
): Promise<Response> {
  const raw = JSON.stringify(body);
  return fetch(`${base}/api/github/webhooks`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      "x-github-event": event,
      "x-github-delivery": id,
      "x-hub-signature-256": sign(raw),
      ...headers,
    },
    body: raw,
  });
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

/** An `issues.opened` delivery in `owner/name`, opened by a person, with the labels named. */
export function issueOpened(
  repository: string,
  number: number,
  text: { title: string; body: string },
  labels: string[] = [],
) {
  const [owner, name] = repository.split("/") as [string, string];
  return payload("issues", "opened", (p) => {
    p.repository.owner.login = owner;
    p.repository.name = name;
    p.repository.full_name = repository;
    p.issue.number = number;
    p.issue.title = text.title;
    p.issue.body = text.body;
    p.issue.html_url = `https://github.com/${repository}/issues/${number}`;
    p.issue.labels = labels.map((n) => ({ name: n })) as typeof p.issue.labels;
    p.sender.type = "User";
  });
}
