import { createServer as createNetServer, type AddressInfo } from "node:net";
import { describe, expect, it } from "@jest/globals";
import type { FastifyRequest } from "fastify";
import type { Service } from "../../src/compose-service.js";
import { BacklogStore } from "../../src/backlog/backlog-store.js";
import { parseAuthEnv, sessionSecretProblem } from "../../src/config/auth-env.schema.js";
import { UserRepoAccess } from "../../src/github/user-repo-access.js";
import { safeReturnTo } from "../../src/http/routes/sign-in.js";
import { SESSION_COOKIE, SessionCookies } from "../../src/http/session-cookie.js";
import type { FakeUser } from "../helpers/fake-github.js";
import { appWithStandIn, capturingLogger, deliver, installationCreated } from "../helpers/app-harness.js";

/**
 * "Sign in with GitHub" for private repositories' boards, through the composed service (embedded database in
 * memory, the App on, GitHub a stand-in on loopback reached as GitHub Enterprise): the OAuth web flow followed
 * by hand with cookies, then the tasks API as each user sees it.
 */
const SESSION_SECRET = "q3Xo9vJr2mLk8ZpT1wYb4NcE7hUa6sDf0gRi5tKe";
const octocat: FakeUser = { login: "octocat", id: 583231 };
const stranger: FakeUser = { login: "stranger", id: 777 };

const app = appWithStandIn();
const { github } = app;
/** The service the test started (closed after it by the harness), and where it listens. */
let service: Service;
let base = "";

function signInEnv(extra: Record<string, string> = {}): Record<string, string> {
  return {
    ...app.env(),
    DATA_DIR: "memory://",
    GITHUB_CLIENT_ID: github.oauthClient.id,
    GITHUB_CLIENT_SECRET: github.oauthClient.secret,
    SESSION_SECRET,
    ...extra,
  };
}

async function start(env: Record<string, string> = signInEnv(), logger = capturingLogger().logger, port = 0) {
  service = await app.start(env, undefined, logger);
  await service.server.listen({ port, host: "127.0.0.1" });
  base = `http://127.0.0.1:${(service.server.server.address() as { port: number }).port}`;
  return service;
}

/** Install the App on a repository with three issues and wait for its silent backfill. */
async function backfilled(repo: string, isPrivate: boolean) {
  github.repoIssues.set(repo, [
    { number: 1, title: "Crash when saving a file", body: "Steps: open, save. Actual: TypeError." },
    { number: 2, title: "Add CSV export", body: "Twelve customers asked. Acceptance: one row per task." },
    { number: 3, title: "question about setup", body: "How do I configure this?" },
  ]);
  if (isPrivate) github.privateRepos.add(repo);
  await deliver(service, "installation", installationCreated([{ full_name: repo, private: isPrivate }]));
  const store = service.backlogStore!;
  for (let i = 0; i < 400; i++) {
    const row = await store.repository(repo);
    if (row && BacklogStore.progress(row).state === "done" && row.done === 3) return;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`the backfill of ${repo} did not finish`);
}

/** The `name=value` of a Set-Cookie line. */
const pair = (setCookie: string) => setCookie.split(";")[0]!;
const cookieLine = (res: Response, name: string) =>
  res.headers.getSetCookie().find((c) => c.startsWith(`${name}=`));

interface SignedIn {
  cookie: string;
  setCookie: string;
  location: string;
  authorize: URL;
  stateCookie: string;
}

/** The whole web flow, redirect by redirect: login, GitHub's authorize page, the callback. */
async function signIn(user: FakeUser, returnTo = "/board/acme/secret"): Promise<SignedIn> {
  github.signedInUser = user;
  const login = await fetch(`${base}/auth/github/login?return_to=${encodeURIComponent(returnTo)}`, {
    redirect: "manual",
  });
  expect(login.status).toBe(302);
  const stateCookie = cookieLine(login, "task_scorer_oauth_state")!;
  const authorize = new URL(login.headers.get("location")!);
  const atGitHub = await fetch(authorize, { redirect: "manual" });
  expect(atGitHub.status).toBe(302);
  const callback = await fetch(atGitHub.headers.get("location")!, {
    redirect: "manual",
    headers: { cookie: pair(stateCookie) },
  });
  const setCookie = cookieLine(callback, SESSION_COOKIE) ?? "";
  return {
    cookie: pair(setCookie),
    setCookie,
    location: callback.headers.get("location") ?? `(status ${callback.status}) ${await callback.text()}`,
    authorize,
    stateCookie,
  };
}

const tasks = (repo: string, cookie?: string) =>
  fetch(`${base}/api/repos/${repo}/tasks`, { headers: cookie ? { cookie } : {} });

describe("sign in with GitHub", () => {
  it("signs in through GitHub's OAuth flow; the user sees a private repository's tasks; nothing secret is logged", async () => {
    const { logger, lines } = capturingLogger();
    await start(signInEnv(), logger);
    await backfilled("acme/secret", true);
    github.grantAccess("octocat", "acme/secret");

    const s = await signIn(octocat);
    expect(s.authorize.origin + s.authorize.pathname).toBe(`${github.url}/login/oauth/authorize`);
    expect(s.authorize.searchParams.get("client_id")).toBe(github.oauthClient.id);
    expect(s.authorize.searchParams.get("redirect_uri")).toBe(`${base}/auth/github/callback`);
    expect(s.authorize.searchParams.get("state")).toMatch(/^[\w-]{22}$/);
    expect(s.stateCookie).toMatch(
      /^task_scorer_oauth_state=v1\.[\w-]+\.[\w-]+; Path=\/auth\/github; HttpOnly; SameSite=Lax; Max-Age=600$/,
    );
    expect(s.location).toBe("/board/acme/secret");
    // The session: signed, HttpOnly, SameSite=Lax, 8 hours (GitHub's user token lifetime), not Secure on http.
    expect(s.setCookie).toMatch(
      /^task_scorer_session=v1\.[\w-]+\.[\w-]+; Path=\/; HttpOnly; SameSite=Lax; Max-Age=28800$/,
    );
    const [token] = [...github.userTokens.keys()];
    expect(token).toMatch(/^ghu_/);
    // The token is in the cookie only encrypted.
    const payloadJson = Buffer.from(s.cookie.split(".")[1]!, "base64url").toString("utf8");
    expect(payloadJson).not.toContain(token!);
    expect(JSON.parse(payloadJson)).toMatchObject({ l: "octocat", u: 583231 });

    // The code was exchanged with the App's client secret, asking for JSON.
    const exchange = github.requests.find((r) => r.path === "/login/oauth/access_token");
    expect(exchange?.method).toBe("POST");

    const me = await fetch(`${base}/auth/me`, { headers: { cookie: s.cookie } });
    expect(me.status).toBe(200);
    expect(await me.json()).toEqual({ login: "octocat" });

    const r = await tasks("acme/secret", s.cookie);
    expect(r.status).toBe(200);
    expect(r.headers.get("cache-control")).toBe("private, no-store");
    const list = (await r.json()) as { repository: string; total: number };
    expect(list).toMatchObject({ repository: "acme/secret", total: 3 });
    // The access check used the user's own token.
    const check = github.requests.filter(
      (q) => q.path === "/repos/acme/secret" && q.authorization?.includes("ghu_"),
    );
    expect(check).toHaveLength(1);
    expect(check[0]!.authorization).toBe(`Bearer ${token}`);

    // The board's repeated fetches are answered from the 60 s verdict, not a GitHub call each.
    for (let i = 0; i < 3; i++) expect((await tasks("acme/secret", s.cookie)).status).toBe(200);
    expect(
      github.requests.filter((q) => q.path === "/repos/acme/secret" && q.authorization?.includes("ghu_")),
    ).toHaveLength(1);

    const log = JSON.stringify(lines);
    expect(log).toContain("signed in with GitHub");
    expect(log).not.toContain(token!);
    expect(log).not.toContain(s.cookie.split("=")[1]!);
    expect(log).not.toContain(github.oauthClient.secret);
    expect(log).not.toContain(SESSION_SECRET);
  });

  it("a user without access gets 404, like a repository that does not exist; no session gets 401", async () => {
    await start();
    await backfilled("acme/secret", true);
    github.grantAccess("octocat", "acme/secret");

    const none = await tasks("acme/secret");
    expect(none.status).toBe(401);
    const body = (await none.json()) as { error: { code: string; message: string } };
    expect(body.error.code).toBe("unauthorized");
    expect(body.error.message).toContain("/auth/github/login?return_to=/board/acme/secret");
    expect((await fetch(`${base}/auth/me`)).status).toBe(401);

    const s = await signIn(stranger);
    const denied = await tasks("acme/secret", s.cookie);
    expect(denied.status).toBe(404);
    expect(((await denied.json()) as { error: { code: string } }).error.code).toBe("not_found");
    // An unknown repository answers the same to a signed-in user, so a 404 tells nothing.
    const unknown = await tasks("acme/never-heard-of", s.cookie);
    expect(unknown.status).toBe(404);
    // The one who has access sees it.
    const owner = await signIn(octocat);
    expect((await tasks("acme/secret", owner.cookie)).status).toBe(200);
  });

  it("a revoked token is 401 and that answer clears the session cookie", async () => {
    await start();
    await backfilled("acme/secret", true);
    github.grantAccess("octocat", "acme/secret");
    const s = await signIn(octocat);
    github.revokeTokensOf("octocat");

    const r = await tasks("acme/secret", s.cookie);
    expect(r.status).toBe(401);
    expect(((await r.json()) as { error: { code: string } }).error.code).toBe("unauthorized");
    expect(cookieLine(r, SESSION_COOKIE)).toMatch(
      /^task_scorer_session=; Path=\/; HttpOnly; SameSite=Lax; Max-Age=0/,
    );
    // A client that keeps the cookie anyway is not signed in either.
    expect((await fetch(`${base}/auth/me`, { headers: { cookie: s.cookie } })).status).toBe(401);
    // A 401 is not kept: after signing in again, the new token is asked.
    const again = await signIn(octocat);
    expect((await tasks("acme/secret", again.cookie)).status).toBe(200);
  });

  it("a tampered, forged or expired cookie is no session (401)", async () => {
    await start();
    await backfilled("acme/secret", true);
    github.grantAccess("octocat", "acme/secret");
    github.grantAccess("stranger", "acme/secret");
    const s = await signIn(stranger);
    const [, value] = s.cookie.split("=") as [string, string];
    const [version, body, signature] = value.split(".") as [string, string, string];

    // The login and id changed to someone else's, signature kept.
    const p = JSON.parse(Buffer.from(body, "base64url").toString("utf8")) as Record<string, unknown>;
    const swapped = Buffer.from(JSON.stringify({ ...p, l: "octocat", u: 583231 })).toString("base64url");
    // A cookie signed with another secret.
    const other = new SessionCookies("another-secret-0123456789-abcdefghijkl-XYZ").sealSession({
      login: "stranger",
      id: 777,
      token: [...github.userTokens.keys()][0]!,
    });
    // One signed with the right secret, 8 hours and a second ago.
    const expired = new SessionCookies(SESSION_SECRET, {
      now: () => Date.now() - 8 * 3600_000 - 1000,
    }).sealSession({ login: "stranger", id: 777, token: [...github.userTokens.keys()][0]! });
    const flipped = signature.startsWith("A") ? `B${signature.slice(1)}` : `A${signature.slice(1)}`;
    for (const bad of [
      `${version}.${swapped}.${signature}`,
      `${version}.${body}.${flipped}`,
      `${version}.${body}`,
      `v2.${body}.${signature}`,
      other,
      expired,
      "garbage",
    ]) {
      const r = await tasks("acme/secret", `${SESSION_COOKIE}=${bad}`);
      expect({ bad, status: r.status }).toEqual({ bad, status: 401 });
      expect(
        (await fetch(`${base}/auth/me`, { headers: { cookie: `${SESSION_COOKIE}=${bad}` } })).status,
      ).toBe(401);
    }
    expect((await tasks("acme/secret", s.cookie)).status).toBe(200);
  });

  it("the callback refuses a bad state, a missing state cookie, a refused code and a cancelled sign-in", async () => {
    await start();
    github.signedInUser = octocat;
    const login = await fetch(`${base}/auth/github/login?return_to=/board/acme/secret`, {
      redirect: "manual",
    });
    const stateCookie = pair(cookieLine(login, "task_scorer_oauth_state")!);
    const state = new URL(login.headers.get("location")!).searchParams.get("state")!;
    const callback = (query: string, cookie?: string) =>
      fetch(`${base}/auth/github/callback?${query}`, {
        redirect: "manual",
        headers: cookie ? { cookie } : {},
      });

    const code = github.issueCode(octocat);
    const wrongState = await callback(`code=${code}&state=not-the-state`, stateCookie);
    expect(wrongState.status).toBe(400);
    expect(wrongState.headers.get("content-type")).toContain("text/html");
    const text = await wrongState.text();
    expect(text).toContain("was not started from this browser");
    expect(text).toContain('href="/auth/github/login?return_to=%2Fboard%2Facme%2Fsecret"');
    expect(cookieLine(wrongState, SESSION_COOKIE)).toBeUndefined();

    // The right state without the browser's cookie: a link someone was sent.
    const noCookie = await callback(`code=${code}&state=${state}`);
    expect(noCookie.status).toBe(400);
    expect(cookieLine(noCookie, SESSION_COOKIE)).toBeUndefined();
    // The code was never exchanged.
    expect(github.requests.some((r) => r.path === "/login/oauth/access_token")).toBe(false);

    const refused = await callback(`code=used-or-made-up&state=${state}`, stateCookie);
    expect(refused.status).toBe(400);
    expect(await refused.text()).toContain("GitHub did not accept the sign-in code");
    expect(cookieLine(refused, SESSION_COOKIE)).toBeUndefined();

    // A state is good for one callback: each case below starts its own sign-in.
    const started = async () => {
      const again = await fetch(`${base}/auth/github/login?return_to=/board/acme/secret`, {
        redirect: "manual",
      });
      return {
        cookie: pair(cookieLine(again, "task_scorer_oauth_state")!),
        state: new URL(again.headers.get("location")!).searchParams.get("state")!,
      };
    };
    const second = await started();
    const cancelled = await callback(`error=access_denied&state=${second.state}`, second.cookie);
    expect(cancelled.status).toBe(403);
    expect(await cancelled.text()).toContain("GitHub did not authorize the sign-in (access_denied)");

    const third = await started();
    const noCode = await callback(`state=${third.state}`, third.cookie);
    expect(noCode.status).toBe(400);
    expect(await noCode.text()).toContain("GitHub did not send a sign-in code");
  });

  it("one login's state is used once: the same state with a second code is refused", async () => {
    await start();
    github.signedInUser = octocat;
    const login = await fetch(`${base}/auth/github/login?return_to=/board/acme/secret`, {
      redirect: "manual",
    });
    const stateCookie = pair(cookieLine(login, "task_scorer_oauth_state")!);
    const state = new URL(login.headers.get("location")!).searchParams.get("state")!;
    const callback = (code: string) =>
      fetch(`${base}/auth/github/callback?code=${code}&state=${state}`, {
        redirect: "manual",
        headers: { cookie: stateCookie },
      });

    const first = await callback(github.issueCode(octocat));
    expect(first.status).toBe(302);
    expect(cookieLine(first, SESSION_COOKIE)).toMatch(/^task_scorer_session=v1\./);

    // A client that kept the state cookie (it was cleared) and a second code: not a second sign-in.
    const replay = await callback(github.issueCode(stranger));
    expect(replay.status).toBe(400);
    expect(await replay.text()).toContain("This sign-in was already used");
    expect(cookieLine(replay, SESSION_COOKIE)).toBeUndefined();
    // Only the first code was ever exchanged.
    expect(github.requests.filter((r) => r.path === "/login/oauth/access_token")).toHaveLength(1);
  });

  it("signing out ends the session on the server: the old cookie, replayed, is no longer signed in", async () => {
    await start();
    await backfilled("acme/secret", true);
    github.grantAccess("octocat", "acme/secret");
    const s = await signIn(octocat);
    const other = await signIn(octocat);
    expect((await fetch(`${base}/auth/me`, { headers: { cookie: s.cookie } })).status).toBe(200);

    const out = await fetch(`${base}/auth/logout`, {
      method: "POST",
      redirect: "manual",
      headers: { cookie: s.cookie, origin: base },
    });
    expect(out.status).toBe(303);
    // The cookie kept by a client (or copied before the sign-out) is refused everywhere.
    const me = await fetch(`${base}/auth/me`, { headers: { cookie: s.cookie } });
    expect(me.status).toBe(401);
    expect((await tasks("acme/secret", s.cookie)).status).toBe(401);
    // Another session (another sign-in, another browser) is not affected.
    expect((await fetch(`${base}/auth/me`, { headers: { cookie: other.cookie } })).status).toBe(200);
    expect((await tasks("acme/secret", other.cookie)).status).toBe(200);
  });

  it("GitHub unreachable or failing is an error page or a 503, never a 500", async () => {
    await start();
    await backfilled("acme/secret", true);
    github.grantAccess("octocat", "acme/secret");
    const s = await signIn(octocat);
    github.faults.push({
      method: "GET",
      path: /^\/repos\/acme\/secret$/,
      status: 502,
      body: { message: "oops" },
    });
    const r = await tasks("acme/secret", s.cookie);
    expect(r.status).toBe(503);
    const body = (await r.json()) as { error: { code: string; message: string } };
    expect(body.error.code).toBe("github_unavailable");
    expect(body.error.message).toContain("could not be checked");

    github.faults.push({ method: "GET", path: /^\/user$/, status: 500, body: { message: "oops" } });
    github.signedInUser = octocat;
    const failed = await signIn(octocat);
    expect(failed.location).toMatch(/^\(status 502\)/);
    expect(failed.location).toContain("GitHub did not say who signed in");
  });

  it("return_to goes only to a path on this server (no open redirect)", async () => {
    await start();
    for (const evil of [
      "//evil.example",
      "https://evil.example/board",
      "/\\evil.example",
      "/%0d%0aSet-Cookie:x",
      "/.//evil.example/x",
      "/..//evil.example/x",
      "/%2e//evil.example/x",
    ]) {
      const s = await signIn(octocat, evil);
      expect({ evil, location: s.location }).toEqual({
        evil,
        location: evil.startsWith("/%0d") ? evil : "/",
      });
    }
    expect(safeReturnTo("//evil.example")).toBe("/");
    expect(safeReturnTo("/\\evil.example")).toBe("/");
    expect(safeReturnTo("javascript:alert(1)")).toBe("/");
    // The normalised path is what the browser is sent to: dot segments cannot make it protocol-relative.
    for (const dotted of [
      "/.//evil.example/x",
      "/..//evil.example/x",
      "/%2e//evil.example/x",
      "/%2E%2E//evil.example/x",
      "/board/..//evil.example/x",
    ])
      expect({ dotted, to: safeReturnTo(dotted) }).toEqual({ dotted, to: "/" });
    expect(safeReturnTo("/board/./a/../a/b?kind=bug#x")).toBe("/board/a/b?kind=bug");
    expect(safeReturnTo(["/a", "/b"])).toBe("/");
  });

  it("a public repository's tasks need no sign-in", async () => {
    await start();
    await backfilled("acme/widgets", false);
    const r = await tasks("acme/widgets");
    expect(r.status).toBe(200);
    expect(((await r.json()) as { total: number }).total).toBe(3);
    expect(github.requests.some((q) => q.authorization?.includes("ghu_"))).toBe(false);
  });

  it("signing out clears the cookie (303 to /); a sign-out posted from another site is refused", async () => {
    await start();
    const s = await signIn(octocat);
    const out = await fetch(`${base}/auth/logout`, {
      method: "POST",
      redirect: "manual",
      headers: { cookie: s.cookie, "content-type": "application/x-www-form-urlencoded", origin: base },
      body: "",
    });
    expect(out.status).toBe(303);
    expect(out.headers.get("location")).toBe("/");
    expect(cookieLine(out, SESSION_COOKIE)).toMatch(
      /^task_scorer_session=; Path=\/; HttpOnly; SameSite=Lax; Max-Age=0/,
    );
    const plain = await fetch(`${base}/auth/logout`, { method: "POST", redirect: "manual" });
    expect(plain.status).toBe(303);
    const cross = await fetch(`${base}/auth/logout`, {
      method: "POST",
      redirect: "manual",
      headers: { origin: "https://evil.example" },
    });
    expect(cross.status).toBe(403);
  });

  it("behind https (PUBLIC_URL), the cookies are Secure and the callback URL is the public one", async () => {
    await start(signInEnv({ PUBLIC_URL: "https://scorer.example.com" }));
    const res = await service.server.inject({
      method: "GET",
      url: "/auth/github/login?return_to=/board/acme/secret",
      headers: { host: "scorer.example.com" },
    });
    expect(res.statusCode).toBe(302);
    const authorize = new URL(String(res.headers.location));
    expect(authorize.searchParams.get("redirect_uri")).toBe(
      "https://scorer.example.com/auth/github/callback",
    );
    expect(String(res.headers["set-cookie"])).toMatch(/; HttpOnly; SameSite=Lax; Max-Age=600; Secure$/);
    // Reached under another name: sent on to the public address first, so the state cookie is set there.
    const elsewhere = await fetch(`${base}/auth/github/login?return_to=/board/acme/secret`, {
      redirect: "manual",
    });
    expect(elsewhere.headers.get("location")).toBe(
      "https://scorer.example.com/auth/github/login?return_to=%2Fboard%2Facme%2Fsecret",
    );
  });

  it("the redirect_uri is the registered callback URL (GITHUB_CALLBACK_URL), whatever name the visitor used", async () => {
    // Registered from http://127.0.0.1:PORT (what registering writes to .env); the visitor types localhost.
    const port = await new Promise<number>((resolve) => {
      const probe = createNetServer().listen(0, "127.0.0.1", () => {
        const { port: p } = probe.address() as AddressInfo;
        probe.close(() => resolve(p));
      });
    });
    const registered = `http://127.0.0.1:${port}/auth/github/callback`;
    await start(signInEnv({ GITHUB_CALLBACK_URL: registered }), undefined, port);
    await backfilled("acme/secret", true);
    github.grantAccess("octocat", "acme/secret");
    github.signedInUser = octocat;

    // Under localhost, the sign-in continues at the registered name first (so its state cookie is set there).
    const atLocalhost = await fetch(
      `http://localhost:${port}/auth/github/login?return_to=/board/acme/secret`,
      {
        redirect: "manual",
      },
    );
    expect(atLocalhost.status).toBe(302);
    expect(atLocalhost.headers.get("location")).toBe(
      `http://127.0.0.1:${port}/auth/github/login?return_to=%2Fboard%2Facme%2Fsecret`,
    );
    const login = await fetch(atLocalhost.headers.get("location")!, { redirect: "manual" });
    const authorize = new URL(login.headers.get("location")!);
    expect(authorize.searchParams.get("redirect_uri")).toBe(registered);
    // GitHub accepts it and the sign-in completes.
    const atGitHub = await fetch(authorize, { redirect: "manual" });
    const callback = await fetch(atGitHub.headers.get("location")!, {
      redirect: "manual",
      headers: { cookie: pair(cookieLine(login, "task_scorer_oauth_state")!) },
    });
    expect(callback.status).toBe(302);
    expect(callback.headers.get("location")).toBe("/board/acme/secret");
    const session = pair(cookieLine(callback, SESSION_COOKIE)!);
    expect((await tasks("acme/secret", session)).status).toBe(200);

    // A callback URL this server does not serve is refused at start, naming the variable.
    expect(() =>
      parseAuthEnv({ ...signInEnv(), GITHUB_CALLBACK_URL: "http://localhost:3000/elsewhere" }),
    ).toThrow(/GITHUB_CALLBACK_URL.*ending in \/auth\/github\/callback/);
  }, 60_000);

  it("without sign-in configured, /auth/github/login says what to set, and private backlogs stay closed", async () => {
    await start(app.env({ DATA_DIR: "memory://" }));
    const page = await fetch(`${base}/auth/github/login?return_to=/board/acme/secret`, {
      redirect: "manual",
    });
    expect(page.status).toBe(404);
    expect(page.headers.get("content-type")).toContain("text/html");
    const html = await page.text();
    for (const word of [
      "not configured",
      "GITHUB_CLIENT_ID",
      "GITHUB_CLIENT_SECRET",
      "SESSION_SECRET",
      "openssl rand -base64 32",
    ])
      expect(html).toContain(word);
    expect(html).toContain(`${base}/auth/github/callback`);
    const me = await fetch(`${base}/auth/me`);
    expect(me.status).toBe(401);
    const r = await tasks("acme/secret");
    expect(r.status).toBe(401);
  });
});

describe("the sign-in configuration", () => {
  const client = { GITHUB_CLIENT_ID: "Iv1.abc", GITHUB_CLIENT_SECRET: "s3cr3t" };

  it("start refuses a missing or weak SESSION_SECRET once sign-in is configured, naming it and how to make one", async () => {
    await expect(app.start(signInEnv({ SESSION_SECRET: "" }))).rejects.toThrow(
      /SESSION_SECRET is required once sign-in is configured.*openssl rand -base64 32/,
    );
    for (const weak of [
      "short-but-random-9f8e7d",
      "changeme-changeme-changeme-changeme",
      "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
      "0123456789012345678901234567890123456789",
      "abcdefghijklmnopqrstuvwxyz0123456789ABCD",
      "my-super-secret-session-key-for-production",
    ]) {
      const start = app.start(signInEnv({ SESSION_SECRET: weak }));
      await expect(start).rejects.toThrow(/SESSION_SECRET is too weak.*openssl rand -base64 32/);
      await start.catch((err: Error) => expect(err.message).not.toContain(weak));
    }
  });

  it("a strong secret passes; half a client is refused; no client means sign-in off", () => {
    expect(sessionSecretProblem(SESSION_SECRET)).toBeUndefined();
    expect(sessionSecretProblem("Vh1oV9r8yKkXxq1mB2eG3w5Zt7nUaPcQdRsTfLjHiMo")).toBeUndefined();
    // `openssl rand -hex 32`
    expect(
      sessionSecretProblem("9c1185a5c5e9fc54612808977ee8f548b2258d31a4b4c0b5e1d6b1f0d3a7e2c4"),
    ).toBeUndefined();
    expect(parseAuthEnv({ ...client, SESSION_SECRET }).signIn).toEqual({
      clientId: "Iv1.abc",
      clientSecret: "s3cr3t",
      sessionSecret: SESSION_SECRET,
    });
    expect(() => parseAuthEnv({ GITHUB_CLIENT_ID: "Iv1.abc", SESSION_SECRET })).toThrow(
      /needs both GITHUB_CLIENT_ID and GITHUB_CLIENT_SECRET.*GITHUB_CLIENT_SECRET is missing/,
    );
    expect(() => parseAuthEnv({ GITHUB_CLIENT_SECRET: "x" })).toThrow(/GITHUB_CLIENT_ID is missing/);
    expect(parseAuthEnv({}).signIn).toBeUndefined();
    expect(
      parseAuthEnv({ GITHUB_CLIENT_ID: " ", GITHUB_CLIENT_SECRET: "", SESSION_SECRET: "weak" }).signIn,
    ).toBeUndefined();
  });
});

describe("the access check (UserRepoAccess)", () => {
  type Req = { user?: { login: string; id: number; token: string } };
  const forgotten: Req[] = [];
  const sessions = {
    sessionOf: (r: Req) => r.user,
    forget: (r: Req) => void forgotten.push(r),
  };

  it("keeps verdicts 60 s per user and repository, bounded, never a 401, and says 503 when GitHub is unreachable", async () => {
    github.privateRepos.add("acme/secret");
    github.repoIssues.set("acme/secret", []);
    const token = "ghu_" + "a".repeat(36);
    github.userTokens.set(token, octocat);
    github.grantAccess("octocat", "acme/secret");
    let now = 1_000_000;
    const access = new UserRepoAccess<Req>({
      sessions,
      apiUrl: `${github.url}/api/v3`,
      now: () => now,
      maxEntries: 2,
    });
    const me: Req = { user: { ...octocat, token } };

    expect(await access.check({}, "acme", "secret")).toBe("unauthenticated");
    expect(access.calls).toBe(0);
    expect(await access.check(me, "acme", "secret")).toBe("allowed");
    expect(await access.check(me, "ACME", "Secret")).toBe("allowed");
    expect(access.calls).toBe(1);
    expect(await access.check(me, "acme", "other")).toBe("not_found");
    expect(await access.check(me, "acme", "other")).toBe("not_found");
    expect(access.calls).toBe(2);
    now += 60_001;
    expect(await access.check(me, "acme", "secret")).toBe("allowed");
    expect(access.calls).toBe(3);
    // Bounded: a third repository pushes the oldest verdict out.
    expect(await access.check(me, "acme", "third")).toBe("not_found");
    expect(await access.check(me, "acme", "fourth")).toBe("not_found");
    expect(await access.check(me, "acme", "secret")).toBe("allowed");
    expect(access.calls).toBe(6);

    // Concurrent checks share one call.
    now += 60_001;
    await Promise.all([1, 2, 3].map(() => access.check(me, "acme", "secret")));
    expect(access.calls).toBe(7);

    // A revoked token: unauthenticated, the session forgotten, nothing kept.
    now += 60_001;
    github.revokedTokens.add(token);
    expect(await access.check(me, "acme", "secret")).toBe("unauthenticated");
    expect(await access.check(me, "acme", "secret")).toBe("unauthenticated");
    expect(access.calls).toBe(9);
    expect(forgotten).toHaveLength(2);

    const down = new UserRepoAccess<Req>({ sessions, apiUrl: "http://127.0.0.1:9/api/v3" });
    await expect(down.check(me, "acme", "secret")).rejects.toMatchObject({ code: "github_unavailable" });
  });

  it("reads the session from the signed cookie", () => {
    const cookies = new SessionCookies(SESSION_SECRET);
    const value = cookies.sealSession({ login: "octocat", id: 1, token: "ghu_x" });
    const request = {
      headers: { cookie: `other=1; ${SESSION_COOKIE}=${value}` },
    } as unknown as FastifyRequest;
    expect(cookies.sessionOf(request)).toMatchObject({ login: "octocat", id: 1, token: "ghu_x" });
    cookies.forget(request, { token: "ghu_x" });
    expect(cookies.sessionOf(request)).toBeUndefined();
    expect(cookies.wasForgotten(request)).toBe(true);
    // Another request with the same (revoked) token is not signed in either.
    const again = { headers: { cookie: `${SESSION_COOKIE}=${value}` } } as unknown as FastifyRequest;
    expect(cookies.sessionOf(again)).toBeUndefined();
    // A state cookie is not a session, even though both are signed with the same secret.
    const state = cookies.sealState({ state: "s", returnTo: "/" });
    expect(cookies.openSession(state)).toBeUndefined();
  });
});
