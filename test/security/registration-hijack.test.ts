import { request as httpRequest } from "node:http";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import pino from "pino";
import { composeService, type Service } from "../../src/compose-service.js";
import { loadServiceConfig } from "../../src/config/service-config.js";

/**
 * Registering the App writes its credentials (and webhook secret) into .env. A stranger who can reach the
 * registration pages could register an App of their own, have its secret written here, and then sign
 * events as GitHub. These are the attacker's attempts.
 */
const silent = pino({ level: "silent" });
let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "task-scorer-hijack-"));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function serve(env: Record<string, string>, host = "127.0.0.1") {
  const envFile = join(dir, `${Math.random()}.env`);
  const service = await composeService(loadServiceConfig({ SCORER: "offline", ...env }), {
    logger: silent,
    envFile,
  });
  await service.server.listen({ port: 0, host });
  const { port } = service.server.server.address() as { port: number };
  return { service, port, envFile };
}

/** node:http, not fetch: fetch will not send a Host header of the caller's choosing, an attacker's client will. */
function post(url: string, headers: Record<string, string> = {}) {
  const body = "account=personal";
  return new Promise<{ status: number; location: string | undefined; body: string }>((resolve, reject) => {
    const req = httpRequest(
      url,
      {
        method: "POST",
        headers: {
          "content-type": "application/x-www-form-urlencoded",
          "content-length": String(body.length),
          ...headers,
        },
      },
      (res) => {
        let text = "";
        res.on("data", (c: Buffer) => (text += c.toString()));
        res.on("end", () =>
          resolve({ status: res.statusCode ?? 0, location: res.headers.location, body: text }),
        );
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

const manifestOf = (html: string) =>
  JSON.parse(
    html
      .match(/name="manifest" value="([^"]*)"/)![1]!
      .replace(/&quot;/g, '"')
      .replace(/&amp;/g, "&"),
  ) as { redirect_url: string; hook_attributes: { url: string } };

describe("App registration cannot be taken over", () => {
  let service: Service | undefined;
  afterAll(async () => service?.close());

  it("is not offered on a server that listens on every interface (npm run start:prod without NODE_ENV)", async () => {
    // No HOST: the default for start:prod and PaaS (0.0.0.0); no NODE_ENV either.
    const s = await serve({ HOST: "0.0.0.0" }, "0.0.0.0");
    try {
      const page = await fetch(`http://127.0.0.1:${s.port}/`);
      expect(await page.text()).not.toContain("Register the GitHub App");
      expect((await post(`http://127.0.0.1:${s.port}/setup/register`)).status).toBe(404);
      expect((await fetch(`http://127.0.0.1:${s.port}/setup/callback?code=x&state=y`)).status).toBe(404);
    } finally {
      await s.service.close();
    }
  });

  it("on loopback, a forged Host header never reaches the manifest: the browser is sent to the real address", async () => {
    const s = await serve({ HOST: "127.0.0.1" });
    service = s.service;
    const base = `http://127.0.0.1:${s.port}`;
    const forged = await post(`${base}/setup/register`, { host: "attacker.example" });
    expect(forged.status).toBe(307);
    expect(forged.location).toBe(`${base}/setup/register`);
    expect(forged.body).not.toContain("attacker.example");
    const real = await post(forged.location!);
    const manifest = manifestOf(real.body);
    expect(manifest.redirect_url).toBe(`${base}/setup/callback`);
    expect(manifest.hook_attributes.url).toBe(`${base}/api/github/webhooks`);
  });

  it("a callback without the browser's state cookie writes nothing to .env", async () => {
    const s = await serve({ HOST: "127.0.0.1" });
    try {
      const base = `http://127.0.0.1:${s.port}`;
      const started = await post(`${base}/setup/register`);
      const state = started.body.match(/state=([0-9a-f]{32})/)![1]!;
      const res = await fetch(`${base}/setup/callback?code=attackers-code&state=${state}`);
      expect(res.status).toBe(400);
      expect(() => readFileSync(s.envFile)).toThrow();
    } finally {
      await s.service.close();
    }
  });

  it("REGISTRATION=on builds every URL from PUBLIC_URL, whatever Host says", async () => {
    const s = await serve(
      { HOST: "0.0.0.0", REGISTRATION: "on", PUBLIC_URL: "https://scorer.example.com/" },
      "127.0.0.1",
    );
    try {
      const res = await post(`http://127.0.0.1:${s.port}/setup/register`, { host: "attacker.example" });
      expect(res.status).toBe(200);
      const manifest = manifestOf(res.body);
      expect(manifest.redirect_url).toBe("https://scorer.example.com/setup/callback");
      expect(manifest.hook_attributes.url).toBe("https://scorer.example.com/api/github/webhooks");
      expect(res.body).not.toContain("attacker.example");
    } finally {
      await s.service.close();
    }
  });

  it("REGISTRATION=on on a public address without PUBLIC_URL stops at start with a clear message", async () => {
    expect(() => loadServiceConfig({ SCORER: "offline", HOST: "0.0.0.0", REGISTRATION: "on" })).toThrow(
      /REGISTRATION=on on a non-loopback HOST needs PUBLIC_URL/,
    );
  });
});
