import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseEnv } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import pino from "pino";
import { composeService, type Service } from "../../src/compose-service.js";
import { appSettingsFromEnv } from "../../src/config/app-env.schema.js";
import { PRIVATE_KEY, WEBHOOK_SECRET } from "../helpers/app-harness.js";
import { BROWSER_SETUP_TIMEOUT_MS, describeInChromium, launchChromium } from "../helpers/chromium.js";
import { FakeGitHub } from "../helpers/fake-github.js";
import { loadServiceConfig } from "../../src/config/service-config.js";

/**
 * Registering the App from the start page, through GitHub's manifest flow, against a stand-in
 * GitHub (Enterprise settings pointing at loopback): the manifest GitHub receives, the code
 * exchange, and the .env the next start reads.
 */
const silent = pino({ level: "silent" });
let dir: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "task-scorer-register-"));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function serve(
  env: Record<string, string>,
  envFile: string,
  host = "127.0.0.1",
): Promise<{ service: Service; base: string; port: number }> {
  // Registration is offered on loopback only (HOST 127.0.0.1, as `npm start` listens).
  const service = await composeService(loadServiceConfig({ SCORER: "offline", HOST: host, ...env }), {
    logger: silent,
    envFile,
  });
  await service.server.listen({ port: 0, host });
  const { port } = service.server.server.address() as { port: number };
  return { service, base: `http://${host.includes(":") ? `[${host}]` : host}:${port}`, port };
}

describeInChromium("registering the GitHub App in the browser (manifest flow)", () => {
  let github: FakeGitHub;
  let browser: Awaited<ReturnType<typeof launchChromium>>;
  const existing = "# my settings\nPORT=3000\nOPENAI_MODEL=gpt-4o-mini\nAPP_ID=999\n\nLOG_LEVEL=debug\n";

  beforeAll(async () => {
    github = await new FakeGitHub().start();
    browser = await launchChromium();
  }, BROWSER_SETUP_TIMEOUT_MS);
  afterAll(async () => {
    await browser?.close();
    await github.close();
  });

  // The start page opened under each loopback name: the form posts to its own origin (CSP form-action 'self'),
  // and the App is registered under the name the browser used, so that GitHub sends it back there.
  it.each([
    { name: "127.0.0.1", listen: "127.0.0.1", origin: (port: number) => `http://127.0.0.1:${port}` },
    { name: "localhost", listen: "127.0.0.1", origin: (port: number) => `http://localhost:${port}` },
    { name: "[::1]", listen: "::1", origin: (port: number) => `http://[::1]:${port}` },
  ])(
    "from http://$name: offers registration, posts the manifest, exchanges the code and writes .env",
    async ({ name, listen, origin }) => {
      const envFile = join(dir, `browser-${name.replace(/\W/g, "")}.env`);
      writeFileSync(envFile, existing);
      const served = await serve({ GHE_HOST: github.host, GHE_PROTOCOL: "http" }, envFile, listen);
      const { service } = served;
      const base = origin(served.port);
      const received = github.manifest.received.length;
      const violations: string[] = [];
      const page = await browser.context.newPage();
      page.on("console", (m) => {
        if (/Content Security Policy|violates/i.test(m.text())) violations.push(m.text());
      });
      try {
        await page.goto(base);
        const section = page.getByRole("region", { name: "Register the GitHub App" });
        await expect(section.textContent()).resolves.toContain(`GitHub Enterprise Server (${github.host})`);
        await page.getByLabel("My personal account").check();
        await page.getByRole("button", { name: "Register the GitHub App" }).click();

        // setup.js posts the manifest to GitHub's form at once.
        await page.getByRole("heading", { name: "Create GitHub App task-scorer" }).waitFor();
        await page.getByRole("button", { name: "Create GitHub App for personal" }).click();
        await page.getByRole("heading", { name: "GitHub App registered" }).waitFor();
        expect(page.url()).toBe(`${base}/setup/callback?${new URL(page.url()).searchParams}`);
        const install = page.getByRole("link", { name: "Install the App" });
        expect(await install.getAttribute("href")).toBe(`${github.url}/apps/task-scorer/installations/new`);
        const main = await page.textContent("main");
        expect(main).toContain("Restart this server");
        // The webhook URL registered is on this machine (no WEBHOOK_PROXY_URL): no promise of comments, but
        // what to do about it.
        expect(main).not.toContain("appears within seconds");
        const alert = (await page.getByRole("alert").textContent())!.replace(/\s+/g, " ");
        expect(alert).toContain(`GitHub cannot reach this App's webhook URL, ${base}/api/github/webhooks`);
        expect(alert).toContain("no report comment appears");
        expect(alert).toContain("set WEBHOOK_PROXY_URL to a channel from smee.io/new");
        expect(alert).toContain("PUBLIC_URL");
        expect(violations).toEqual([]);
      } finally {
        await page.close();
        await service.close();
      }

      expect(github.manifest.received).toHaveLength(received + 1);
      const { manifest, owner } = github.manifest.received[received]!;
      expect(owner).toBe("personal");
      expect(manifest).toMatchObject({
        name: "task-scorer",
        public: false,
        hook_attributes: { url: `${base}/api/github/webhooks` },
        redirect_url: `${base}/setup/callback`,
        // Sign in with GitHub works right after registering: the App's OAuth callback, no OAuth on install.
        callback_urls: [`${base}/auth/github/callback`],
        request_oauth_on_install: false,
        default_permissions: {
          issues: "write",
          pull_requests: "write",
          contents: "read",
          metadata: "read",
          checks: "write",
          organization_projects: "write",
        },
        default_events: ["issues", "issue_comment", "pull_request", "repository"],
      });

      const written = readFileSync(envFile, "utf8");
      // Other lines are kept as they were; APP_ID is replaced, not duplicated.
      expect(written).toMatch(
        /^# my settings\nPORT=3000\nOPENAI_MODEL=gpt-4o-mini\nAPP_ID=4242\n\nLOG_LEVEL=debug\n/,
      );
      expect(written.match(/^APP_ID=/gm)).toHaveLength(1);
      const vars = parseEnv(written);
      expect(vars.WEBHOOK_SECRET).toBe(github.manifest.webhookSecret);
      // The App's OAuth client and a fresh session secret (32 random bytes): sign-in works on the next start.
      expect(vars.GITHUB_CLIENT_ID).toBe(github.manifest.clientId);
      expect(vars.GITHUB_CLIENT_SECRET).toBe(github.manifest.clientSecret);
      expect(vars.SESSION_SECRET).toMatch(/^[\w-]{43}$/);
      // The callback URL registered, for the next start's sign-in (its redirect_uri whatever name is used).
      expect(vars.GITHUB_CALLBACK_URL).toBe(`${base}/auth/github/callback`);
      // The next start accepts what was written: the key parses, the App is on.
      expect(statSync(envFile).mode & 0o777).toBe(0o600);
      const settings = appSettingsFromEnv(vars);
      expect(settings).toMatchObject({ appId: "4242", webhookSecret: github.manifest.webhookSecret });
      expect(settings!.privateKey.trim()).toBe(github.manifest.pem.trim());
      expect(loadServiceConfig({ ...vars }).auth.signIn).toEqual({
        clientId: github.manifest.clientId,
        clientSecret: github.manifest.clientSecret,
        sessionSecret: vars.SESSION_SECRET,
        callbackUrl: `${base}/auth/github/callback`,
      });
    },
    90_000,
  );
});

describe("registration pages (no browser)", () => {
  let github: FakeGitHub;
  beforeAll(async () => {
    github = await new FakeGitHub().start();
  });
  afterAll(() => github.close());

  /** The start page's form, as a browser posts it (over a real connection: URLs come from the socket). */
  async function register(
    base: string,
    fields: Record<string, string>,
    headers: Record<string, string> = {},
  ) {
    const res = await fetch(`${base}/setup/register`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", ...headers },
      body: new URLSearchParams(fields).toString(),
      redirect: "manual",
    });
    return {
      statusCode: res.status,
      headers: Object.fromEntries(res.headers),
      cookie: res.headers.get("set-cookie") ?? "",
      body: await res.text(),
    };
  }

  it("posts to github.com by default, for a personal account or an organisation, under a strict CSP", async () => {
    const { service, base } = await serve({}, join(dir, "a.env"));
    try {
      const page = await service.server.inject({ method: "GET", url: "/" });
      expect(page.body).toContain("Register the GitHub App");
      expect(page.body).toContain("GitHub.com");

      const personal = await register(base, { account: "personal" });
      expect(personal.statusCode).toBe(200);
      expect(personal.body).toMatch(
        /action="https:\/\/github\.com\/settings\/apps\/new\?state=[0-9a-f]{32}"/,
      );
      expect(personal.headers["content-security-policy"]).toContain("form-action 'self' https://github.com");
      expect(personal.headers["content-security-policy"]).toContain("script-src 'self'");
      expect(personal.body).not.toMatch(/<script>/);

      const org = await register(base, { account: "organization", org: "acme-inc" });
      expect(org.body).toMatch(
        /action="https:\/\/github\.com\/organizations\/acme-inc\/settings\/apps\/new\?state=/,
      );

      const bad = await register(base, { account: "organization", org: "not an org!" });
      expect(bad.statusCode).toBe(400);
      expect(bad.body).toContain("Enter the organisation&#39;s name");
    } finally {
      await service.close();
    }
  });

  it("relays webhooks through WEBHOOK_PROXY_URL when set (the manifest's webhook URL)", async () => {
    const { service, base } = await serve(
      { WEBHOOK_PROXY_URL: "https://smee.io/abc123" },
      join(dir, "b.env"),
    );
    try {
      const res = await register(base, { account: "personal" });
      const manifest = JSON.parse(
        res.body
          .match(/name="manifest" value="([^"]*)"/)![1]!
          .replace(/&quot;/g, '"')
          .replace(/&amp;/g, "&"),
      );
      expect(manifest.hook_attributes.url).toBe("https://smee.io/abc123");
    } finally {
      await service.close();
    }
  });

  it("refuses a callback it did not start, and explains a code GitHub will not exchange", async () => {
    const envFile = join(dir, "c.env");
    const { service, base } = await serve({ GHE_HOST: github.host, GHE_PROTOCOL: "http" }, envFile);
    try {
      const stranger = await fetch(`${base}/setup/callback?code=abc&state=not-ours`);
      expect(stranger.status).toBe(400);
      expect(await stranger.text()).toContain("was not started from this browser on this server");

      const started = await register(base, { account: "personal" });
      const state = started.body.match(/state=([0-9a-f]{32})/)![1]!;
      expect(started.cookie).toMatch(
        new RegExp(`task_scorer_registration=${state}; Path=/setup; HttpOnly; SameSite=Lax`),
      );
      // The right state without the browser's cookie (a link sent to someone): refused, nothing written.
      const cookieless = await fetch(`${base}/setup/callback?code=unknown-code&state=${state}`);
      expect(cookieless.status).toBe(400);
      expect(() => readFileSync(envFile)).toThrow();
      const unknown = await fetch(`${base}/setup/callback?code=unknown-code&state=${state}`, {
        headers: { cookie: `task_scorer_registration=${state}` },
      });
      expect(unknown.status).toBe(502);
      expect(await unknown.text()).toContain("GitHub answered 404 to the code exchange");
      expect(() => readFileSync(envFile)).toThrow();
    } finally {
      await service.close();
    }
  });

  /** GitHub's side by hand: the form receives the manifest, its confirm button sends the browser back. */
  async function registerThroughGitHub(
    base: string,
  ): Promise<{ manifest: Record<string, any>; done: Response }> {
    const started = await register(base, { account: "personal" });
    const action = started.body.match(/action="([^"]+)"/)![1]!.replace(/&amp;/g, "&");
    const manifest = started.body
      .match(/name="manifest" value="([^"]*)"/)![1]!
      .replace(/&quot;/g, '"')
      .replace(/&#39;/g, "'")
      .replace(/&lt;/g, "<")
      .replace(/&gt;/g, ">")
      .replace(/&amp;/g, "&");
    const form = await fetch(action, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ manifest }).toString(),
    });
    const code = (await form.text()).match(/name="code" value="([^"]+)"/)![1]!;
    const confirm = await fetch(`${github.url}/settings/apps/new/confirm`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ code }).toString(),
      redirect: "manual",
    });
    const done = await fetch(confirm.headers.get("location")!, {
      headers: { cookie: started.cookie.split(";")[0]! },
    });
    return { manifest: JSON.parse(manifest) as Record<string, any>, done };
  }

  it("writes the App's OAuth client and a new SESSION_SECRET, and keeps a SESSION_SECRET already set", async () => {
    const fresh = join(dir, "f.env");
    let { service, base } = await serve({ GHE_HOST: github.host, GHE_PROTOCOL: "http" }, fresh);
    try {
      const { manifest, done } = await registerThroughGitHub(base);
      expect(manifest.callback_urls).toEqual([`${base}/auth/github/callback`]);
      expect(manifest.request_oauth_on_install).toBe(false);
      expect(done.status).toBe(200);
      expect(await done.text()).toContain("OAuth client ID and secret");
      const vars = parseEnv(readFileSync(fresh, "utf8"));
      expect(vars).toMatchObject({
        APP_ID: "4242",
        GITHUB_CLIENT_ID: github.manifest.clientId,
        GITHUB_CLIENT_SECRET: github.manifest.clientSecret,
      });
      expect(vars.SESSION_SECRET).toMatch(/^[\w-]{43}$/);
      expect(Buffer.from(vars.SESSION_SECRET!, "base64url")).toHaveLength(32);
      // The next start has sign-in on.
      expect(loadServiceConfig({ ...vars }).auth.signIn?.clientId).toBe(github.manifest.clientId);
    } finally {
      await service.close();
    }

    const kept = join(dir, "g.env");
    const mine = "Vh1oV9r8yKkXxq1mB2eG3w5Zt7nUaPcQdRsTfLjHiMo";
    writeFileSync(kept, `SESSION_SECRET=${mine}\n`);
    ({ service, base } = await serve({ GHE_HOST: github.host, GHE_PROTOCOL: "http" }, kept));
    try {
      const { done } = await registerThroughGitHub(base);
      expect(done.status).toBe(200);
      const written = readFileSync(kept, "utf8");
      expect(written.match(/^SESSION_SECRET=/gm)).toHaveLength(1);
      expect(parseEnv(written).SESSION_SECRET).toBe(mine);
    } finally {
      await service.close();
    }
  });

  it("with WEBHOOK_PROXY_URL the success page promises comments; without it, says GitHub cannot reach the webhook", async () => {
    const relayed = await serve(
      { GHE_HOST: github.host, GHE_PROTOCOL: "http", WEBHOOK_PROXY_URL: "https://smee.io/abc123" },
      join(dir, "h.env"),
    );
    try {
      const { manifest, done } = await registerThroughGitHub(relayed.base);
      expect(manifest.hook_attributes.url).toBe("https://smee.io/abc123");
      const html = await done.text();
      expect(html).toContain("the report comment appears within seconds");
      expect(html).not.toContain("GitHub cannot reach");
    } finally {
      await relayed.service.close();
    }
    const local = await serve({ GHE_HOST: github.host, GHE_PROTOCOL: "http" }, join(dir, "i.env"));
    try {
      const { done } = await registerThroughGitHub(local.base);
      const html = await done.text();
      expect(html).not.toContain("appears within seconds");
      expect(html).toContain(
        `GitHub cannot reach this App's webhook URL</strong>, <code>${local.base}/api/github/webhooks</code>`,
      );
      expect(html).toContain("WEBHOOK_PROXY_URL");
    } finally {
      await local.service.close();
    }
  });

  it("stays under the loopback name the browser used (localhost)", async () => {
    const { service, port } = await serve({}, join(dir, "j.env"));
    try {
      // fetch sends Host: localhost:PORT, as a browser on http://localhost:PORT does.
      const named = await register(`http://localhost:${port}`, { account: "personal" });
      expect(named.statusCode).toBe(200);
      const manifest = JSON.parse(
        named.body
          .match(/name="manifest" value="([^"]*)"/)![1]!
          .replace(/&quot;/g, '"')
          .replace(/&amp;/g, "&"),
      ) as { redirect_url: string; callback_urls: string[] };
      expect(manifest.redirect_url).toBe(`http://localhost:${port}/setup/callback`);
      expect(manifest.callback_urls).toEqual([`http://localhost:${port}/auth/github/callback`]);
    } finally {
      await service.close();
    }
  });

  it("is not offered in production (NODE_ENV=production), where strangers could register their own App", async () => {
    const service = await composeService(
      loadServiceConfig({ SCORER: "offline", HOST: "127.0.0.1", NODE_ENV: "production" }),
      { logger: silent, envFile: join(dir, "e.env") },
    );
    try {
      expect((await service.server.inject({ method: "GET", url: "/" })).body).not.toContain(
        "Register the GitHub App",
      );
      expect(
        (
          await service.server.inject({
            method: "POST",
            url: "/setup/register",
            headers: { "content-type": "application/x-www-form-urlencoded" },
            payload: "account=personal",
          })
        ).statusCode,
      ).toBe(404);
    } finally {
      await service.close();
    }
  });

  it("is not offered once the App has credentials", async () => {
    const service = await composeService(
      loadServiceConfig({ SCORER: "offline", APP_ID: "1", PRIVATE_KEY, WEBHOOK_SECRET }),
      { logger: silent, envFile: join(dir, "d.env") },
    );
    try {
      expect((await service.server.inject({ method: "GET", url: "/" })).body).not.toContain(
        "Register the GitHub App",
      );
      expect(
        (
          await service.server.inject({
            method: "POST",
            url: "/setup/register",
            headers: { "content-type": "application/x-www-form-urlencoded" },
            payload: "account=personal",
          })
        ).statusCode,
      ).toBe(404);
    } finally {
      await service.close();
    }
  });
});
