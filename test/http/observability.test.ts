import { Writable } from "node:stream";
import { describe, expect, it } from "@jest/globals";
import pino from "pino";
import { composeService, type Service } from "../../src/compose-service.js";
import {
  PRIVATE_KEY,
  TestOctokit,
  WEBHOOK_SECRET,
  deliver,
  payload,
  standInGitHub,
  startService,
} from "../helpers/app-harness.js";
import { loadServiceConfig } from "../../src/config/service-config.js";

/** Metrics, health, client addresses behind a proxy and CORS, as an operator sees them. */
const silent = pino({ level: "silent" });

function score(service: Service, headers: Record<string, string> = {}, task = "Add CSV export") {
  return service.server.inject({
    method: "POST",
    url: "/score-task",
    headers: { "content-type": "application/json", ...headers },
    payload: { task },
  });
}

async function metrics(service: Service): Promise<string> {
  const res = await service.server.inject({ method: "GET", url: "/metrics" });
  expect(res.statusCode).toBe(200);
  expect(res.headers["content-type"]).toContain("text/plain");
  return res.body;
}

/** The value of one sample line, e.g. `task_scorer_model_calls_total 5`. */
function sample(text: string, series: string): number {
  const line = text.split("\n").find((l) => l.startsWith(`${series} `));
  if (!line) throw new Error(`no sample ${series} in:\n${text}`);
  return Number(line.slice(series.length + 1));
}

describe("/metrics (Prometheus)", () => {
  const github = standInGitHub({ keep: true });

  it("counts requests by route and status, and times scoring", async () => {
    const service = await composeService(loadServiceConfig({ SCORER: "offline" }), { logger: silent });
    try {
      await score(service, {}, "Add a CSV export to the metrics test");
      await score(service, {}, "Add a CSV export to the metrics test");
      await score(service, {}, "");
      await service.server.inject({ method: "GET", url: "/no/such/path" });
      const text = await metrics(service);
      expect(
        sample(text, 'task_scorer_http_requests_total{method="POST",route="/score-task",status="200"}'),
      ).toBe(2);
      expect(
        sample(text, 'task_scorer_http_requests_total{method="POST",route="/score-task",status="400"}'),
      ).toBe(1);
      // Unknown paths share one label, so a scanner cannot blow up the series count.
      expect(
        sample(text, 'task_scorer_http_requests_total{method="GET",route="(no route)",status="404"}'),
      ).toBe(1);
      expect(sample(text, 'task_scorer_scoring_duration_seconds_count{scorer="offline",outcome="ok"}')).toBe(
        2,
      );
      // The second, identical task came from the offline scorer's memo (one per process, so at least 1).
      expect(sample(text, 'task_scorer_cache_hits_total{cache="offline"}')).toBeGreaterThanOrEqual(1);
      expect(text).toContain("process_resident_memory_bytes");
    } finally {
      await service.close();
    }
  });

  it("counts model calls, tokens and cache hits of the LLM scorer", async () => {
    const service = await composeService(
      loadServiceConfig({ SCORER: "openai", OPENAI_API_KEY: "k", OPENAI_BASE_URL: `${github.url}/llm/v1` }),
      { logger: silent },
    );
    try {
      expect((await score(service)).statusCode).toBe(200);
      expect((await score(service)).statusCode).toBe(200);
      const text = await metrics(service);
      expect(sample(text, "task_scorer_model_calls_total")).toBe(5);
      expect(sample(text, 'task_scorer_model_tokens_total{kind="prompt"}')).toBe(5 * 300);
      expect(sample(text, 'task_scorer_model_tokens_total{kind="completion"}')).toBe(5 * 40);
      expect(sample(text, 'task_scorer_cache_hits_total{cache="llm"}')).toBe(5);
      expect(sample(text, 'task_scorer_scoring_duration_seconds_count{scorer="openai",outcome="ok"}')).toBe(
        2,
      );
    } finally {
      await service.close();
    }
  });

  it("shows the webhook queue's depth and its jobs done and failed", async () => {
    const service = await startService({ GHE_HOST: github.host, GHE_PROTOCOL: "http" });
    try {
      expect((await deliver(service, "issues", payload("issues", "opened"))).statusCode).toBe(200);
      await service.queue!.drain();
      const text = await metrics(service);
      expect(sample(text, 'task_scorer_webhook_jobs_total{result="done"}')).toBe(1);
      expect(
        sample(
          text,
          'task_scorer_http_requests_total{method="POST",route="/api/github/webhooks",status="200"}',
        ),
      ).toBe(1);
      expect(sample(text, 'task_scorer_webhook_jobs_total{result="failed"}')).toBe(0);
      // A job abandoned at its time limit is counted too (it was neither done nor failed).
      expect(sample(text, 'task_scorer_webhook_jobs_total{result="timed_out"}')).toBe(0);
      expect(sample(text, "task_scorer_webhook_queue_depth")).toBe(0);
    } finally {
      await service.close();
    }
  });
});

describe("/healthz", () => {
  it("reports the version, the scorer and whether the App is on", async () => {
    const off = await composeService(loadServiceConfig({ SCORER: "offline" }), {
      logger: silent,
      version: "1.2.3",
    });
    const on = await composeService(
      loadServiceConfig({ SCORER: "offline", APP_ID: "1", PRIVATE_KEY, WEBHOOK_SECRET }),
      { logger: silent, version: "1.2.3", Octokit: TestOctokit },
    );
    try {
      expect((await off.server.inject({ url: "/healthz" })).json()).toEqual({
        status: "ok",
        version: "1.2.3",
        scorer: "offline",
        app: false,
      });
      expect((await on.server.inject({ url: "/healthz" })).json()).toMatchObject({ app: true });
    } finally {
      await off.close();
      await on.close();
    }
  });
});

describe("TRUST_PROXY", () => {
  async function limited(env: Record<string, string>) {
    const lines: Record<string, unknown>[] = [];
    const sink = new Writable({
      write(chunk, _enc, done) {
        lines.push(JSON.parse(String(chunk)));
        done();
      },
    });
    const service = await composeService(
      loadServiceConfig({ SCORER: "offline", RATE_LIMIT_PER_MINUTE: "1", ...env }),
      { logger: pino({ level: "info" }, sink) },
    );
    return { service, lines };
  }

  it("rate-limits and logs each client behind the proxy by its forwarded address", async () => {
    const { service, lines } = await limited({ TRUST_PROXY: "127.0.0.1" });
    try {
      expect((await score(service, { "x-forwarded-for": "203.0.113.7" })).statusCode).toBe(200);
      expect((await score(service, { "x-forwarded-for": "198.51.100.9" })).statusCode).toBe(200);
      expect((await score(service, { "x-forwarded-for": "203.0.113.7" })).statusCode).toBe(429);
    } finally {
      await service.close(); // access lines are written in batches, and all of them by the close
    }
    const ips = lines.filter((l) => l.msg === "request").map((l) => l.ip);
    expect(ips).toEqual(["203.0.113.7", "198.51.100.9", "203.0.113.7"]);
  });

  it("without it, a forwarded address is not believed (clients cannot pick their own)", async () => {
    const { service, lines } = await limited({});
    try {
      expect((await score(service, { "x-forwarded-for": "203.0.113.7" })).statusCode).toBe(200);
      expect((await score(service, { "x-forwarded-for": "198.51.100.9" })).statusCode).toBe(429);
    } finally {
      await service.close();
    }
    expect(lines.find((l) => l.msg === "request")?.ip).toBe("127.0.0.1");
  });

  it("refuses a value that is not true, false, hops or addresses", async () => {
    expect(() => loadServiceConfig({ TRUST_PROXY: "yes please" })).toThrow(/TRUST_PROXY/);
  });
});

describe("CORS_ORIGINS", () => {
  const preflight = {
    method: "OPTIONS" as const,
    url: "/score-task",
    headers: { origin: "https://app.example.com", "access-control-request-method": "POST" },
  };

  it("is off by default: no CORS headers, and OPTIONS stays a 405", async () => {
    const service = await composeService(loadServiceConfig({ SCORER: "offline" }), { logger: silent });
    try {
      expect((await service.server.inject(preflight)).statusCode).toBe(405);
      const res = await score(service, { origin: "https://app.example.com" });
      expect(res.headers["access-control-allow-origin"]).toBeUndefined();
    } finally {
      await service.close();
    }
  });

  it("lets listed origins call the API, and no others", async () => {
    const service = await composeService(
      loadServiceConfig({
        SCORER: "offline",
        CORS_ORIGINS: "https://app.example.com, https://other.example.org",
      }),
      { logger: silent },
    );
    try {
      const pre = await service.server.inject(preflight);
      expect(pre.statusCode).toBe(204);
      expect(pre.headers["access-control-allow-origin"]).toBe("https://app.example.com");
      expect(pre.headers["access-control-allow-headers"]).toContain("content-type");
      const ok = await score(service, { origin: "https://app.example.com" });
      expect(ok.headers["access-control-allow-origin"]).toBe("https://app.example.com");
      expect(ok.headers["access-control-expose-headers"]).toContain("x-request-id");
      const other = await score(service, { origin: "https://evil.example.net" });
      expect(other.headers["access-control-allow-origin"]).toBeUndefined();
    } finally {
      await service.close();
    }
    expect(() => loadServiceConfig({ CORS_ORIGINS: "app.example.com" })).toThrow(
      /CORS_ORIGINS.*not an origin: app\.example\.com/,
    );
  });
});

describe("BACKLOG_REQUESTS_PER_MINUTE", () => {
  it("limits the tasks API per client to what it says, with a 429 that says when to come back", async () => {
    const service = await composeService(
      loadServiceConfig({ SCORER: "offline", BACKLOG_REQUESTS_PER_MINUTE: "2" }),
      { logger: pino({ level: "silent" }) },
    );
    try {
      const get = () => service.server.inject({ method: "GET", url: "/api/repos/acme/widgets/tasks" });
      const codes = [(await get()).statusCode, (await get()).statusCode];
      const third = await get();
      expect(codes).not.toContain(429);
      expect(third.statusCode).toBe(429);
      expect(third.headers["retry-after"]).toMatch(/^\d+$/);
      expect(third.json().error.message).toMatch(/at most 2 a minute/);
    } finally {
      await service.close();
    }
  });

  it("refuses a value that is not a positive whole number, naming the variable", () => {
    expect(() => loadServiceConfig({ SCORER: "offline", BACKLOG_REQUESTS_PER_MINUTE: "0" })).toThrow(
      /BACKLOG_REQUESTS_PER_MINUTE/,
    );
  });
});

describe("RATE_LIMIT_PER_MINUTE", () => {
  // A negative or fractional quota once started the server and then refused every request with 429 forever.
  it.each(["-1", "0", "0.5", "ten"])(
    "refuses %s at start, naming the variable and what it wants",
    (value) => {
      expect(() => loadServiceConfig({ SCORER: "offline", RATE_LIMIT_PER_MINUTE: value })).toThrow(
        /RATE_LIMIT_PER_MINUTE.*whole number of requests, 1 or more/,
      );
    },
  );
  it("takes a whole number", () => {
    expect(
      loadServiceConfig({ SCORER: "offline", RATE_LIMIT_PER_MINUTE: "30" }).server.rateLimitPerMinute,
    ).toBe(30);
  });
});
