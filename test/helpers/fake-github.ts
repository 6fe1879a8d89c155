import { createHash, generateKeyPairSync, randomBytes } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/**
 * The one stand-in for the GitHub REST and GraphQL APIs, on 127.0.0.1 (ephemeral port), for the tests and the
 * benchmarks (bench/backlog-bench.ts, learning-bench.ts, webhook-bench.ts): installation tokens, config files,
 * issue comments, labels, check runs, pull requests' files, Projects v2, OAuth, the App manifest flow
 * (registration: the "New GitHub App" form, its confirm button, the code conversion), and each repository's issues
 * listed as GitHub lists them (items of GitHub's own shape and size, pages of at most 100 with Link and ETag,
 * the rate-limit headers), all kept in memory; every request is recorded. The Action reaches it through
 * `GITHUB_API_URL` (nock cannot: @actions/github's Octokit brings its own fetch); the App through `GHE_HOST`,
 * under /api/v3 as GitHub Enterprise serves it. Test files set it up through `standInGitHub`, `appWithStandIn`
 * (app-harness.ts) or `serverWithStandIn` (server-with-stand-in.ts).
 *
 * nock stays in two places, on purpose: test/app/task-scorer-app.test.ts, whose tests state every request the
 * App makes for one event, in order, and fail on any other (nock's pending mocks and disabled network say that
 * exactly; the stand-in answers what it is asked and would let an extra call through unless each test listed
 * `requests`), and the LLM tests (test/llm), which fake a model provider, not GitHub.
 */

export interface FakeComment {
  id: number;
  body: string;
  html_url: string;
  created_at: string;
  /** "owner/repo#number" */
  issue: string;
}

export interface RecordedRequest {
  method: string;
  /** Without the /api/v3 prefix, and without the query. */
  path: string;
  /** The query, with its "?" ("" when none). */
  query: string;
  /** When it arrived (performance.now()). */
  at: number;
  authorization: string | undefined;
  body: unknown;
}

/** The next matching request (or `times` of them) gets this answer, after doing its work if `afterWork`. */
export interface Fault {
  method: string;
  path: RegExp;
  status: number;
  headers?: Record<string, string>;
  body?: unknown;
  /** Do the request's work first, then fail: a comment created whose response is lost. */
  afterWork?: boolean;
  /** How many requests it answers; one unless set. */
  times?: number;
}

export interface FakeIssue {
  number: number;
  title: string;
  body: string;
  labels?: string[];
  pull_request?: boolean;
  created_at?: string;
  updated_at?: string;
  /** Open unless said otherwise; closed issues are listed with `state=closed` (learning reads them). */
  state?: "open" | "closed";
  state_reason?: "completed" | "not_planned" | "duplicate" | null;
  /** A closed one's; its updated_at unless set. */
  closed_at?: string;
}

export interface FakeUser {
  login: string;
  id: number;
}

export class FakeGitHub {
  readonly requests: RecordedRequest[] = [];
  /** Comments by issue key "owner/repo#number". */
  readonly comments: FakeComment[] = [];
  /** Labels on each issue, by issue key. */
  readonly issueLabels = new Map<string, string[]>();
  /** Labels defined in each repository, by "owner/repo". */
  readonly repoLabels = new Map<string, Map<string, { name: string; color: string }>>();
  /**
   * Also a stand-in OpenAI-compatible API at `${url}/llm/v1` (POST /chat/completions), so the bundled
   * LLM scorer can be run without a network: every persona answers `llmScore`, or the call fails
   * with `llmFailStatus` when set.
   */
  llmScore = 8;
  llmFailStatus: number | undefined;
  /**
   * `.github/task-scorer.yml` of each repository, by "owner/repo"; any other file (an `_extends` base), by
   * "owner/repo:path"; absent means no file.
   */
  readonly configFiles = new Map<string, string>();
  /** Each repository's issues and pull requests (items with `pull_request`), by "owner/repo": the backlog's source. */
  readonly repoIssues = new Map<string, FakeIssue[]>();
  /** Collaborators' roles ("admin", "write", "read"...), by "owner/repo:login"; others get 404. */
  readonly roles = new Map<string, string>();
  /** Repositories that are private, by "owner/repo". */
  readonly privateRepos = new Set<string>();
  /** What every answer says is left of the hour's requests (`x-ratelimit-remaining`), and when it resets. */
  rateLimitRemaining = 4999;
  rateLimitReset = Math.floor(Date.UTC(2030, 0, 1) / 1000);
  /** Count `rateLimitRemaining` down by one at each answer that carries it, as GitHub does (the benchmarks). */
  rateLimitCountsDown = false;
  /** Called as each request arrives, before the delay (the benchmarks sample the service's memory here). */
  onRequest: ((request: RecordedRequest) => void) | undefined;
  /** Faults still to be served, matched in order. */
  readonly faults: Fault[] = [];
  /** Projects v2 boards by "organization:login:number" or "user:login:number" (see addProject); GraphQL calls made. */
  readonly projects = new Map<string, FakeProject>();
  readonly graphqlCalls: { query: string; variables: Record<string, unknown> }[] = [];
  /**
   * Each pull request's files, as `GET /repos/{o}/{r}/pulls/{n}/files` lists them (pages of `per_page`, at most
   * 100, and never past GitHub's 3,000), by "owner/repo#number"; a pull request without any gets 404.
   */
  readonly pullFiles = new Map<string, Record<string, unknown>[]>();
  /** Check runs created (POST /repos/{o}/{r}/check-runs), with the repository. */
  readonly checkRuns: (Record<string, unknown> & { repository: string })[] = [];
  /** Delay every response by this many ms (benchmarks). */
  delayMs = 0;
  /**
   * OAuth ("Sign in with GitHub"): the App's client as GitHub knows it; the user signed in on GitHub's side,
   * whom the authorize page sends back with a code (or `access_denied` when `denyAuthorization`); codes (each
   * works once), user-to-server tokens, revoked tokens, and the private repositories each user may read.
   */
  oauthClient = { id: "Iv1.testclientid", secret: "test-client-secret" };
  signedInUser: FakeUser | undefined;
  denyAuthorization = false;
  readonly oauthCodes = new Map<string, { user: FakeUser; redirectUri: string | undefined }>();
  readonly userTokens = new Map<string, FakeUser>();
  readonly revokedTokens = new Set<string>();
  /** Repositories each user can read besides public ones, by login: "owner/repo". */
  readonly userAccess = new Map<string, Set<string>>();
  /**
   * GitHub's side of the App manifest flow (registration): the "New GitHub App" form (personal or an
   * organisation's) that receives the manifest, its confirm button that sends the person back with a code, and the
   * API's code conversion (POST /api/v3/app-manifests/{code}/conversions), which answers once per code, as GitHub
   * does, with the App's credentials below (its private key made on first use: an RSA key costs CPU).
   */
  readonly manifest = new FakeManifestFlow();
  private nextId = 1000;
  private server: Server | undefined;
  url = "";
  /** Host and port, for GHE_HOST. */
  host = "";

  async start(): Promise<this> {
    this.server = createServer((req, res) => {
      void this.handle(req, res);
    });
    await new Promise<void>((resolve) => this.server!.listen(0, "127.0.0.1", resolve));
    const { port } = this.server.address() as AddressInfo;
    this.url = `http://127.0.0.1:${port}`;
    this.host = `127.0.0.1:${port}`;
    return this;
  }

  close(): Promise<void> {
    return this.stop();
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => {
      if (!this.server) return resolve();
      this.server.closeAllConnections();
      this.server.close(() => resolve());
    });
  }

  reset(): void {
    this.requests.length = 0;
    this.comments.length = 0;
    this.issueLabels.clear();
    this.repoLabels.clear();
    this.configFiles.clear();
    this.faults.length = 0;
    this.projects.clear();
    this.graphqlCalls.length = 0;
    this.checkRuns.length = 0;
    this.pullFiles.clear();
    this.repoIssues.clear();
    this.privateRepos.clear();
    this.roles.clear();
    this.rateLimitRemaining = 4999;
    this.delayMs = 0;
    this.llmScore = 8;
    this.llmFailStatus = undefined;
    this.signedInUser = undefined;
    this.denyAuthorization = false;
    this.oauthCodes.clear();
    this.userTokens.clear();
    this.revokedTokens.clear();
    this.userAccess.clear();
    this.manifest.reset();
  }

  /** A code GitHub's authorize page would give this user (for the callback's redirect_uri, when set). */
  issueCode(user: FakeUser, redirectUri?: string): string {
    const code = `code_${randomBytes(10).toString("hex")}`;
    this.oauthCodes.set(code, { user, redirectUri });
    return code;
  }

  /** Let `login` read a (private) repository. */
  grantAccess(login: string, repo: string): void {
    const set = this.userAccess.get(login) ?? new Set<string>();
    set.add(repo.toLowerCase());
    this.userAccess.set(login, set);
  }

  /** Revoke every token issued to `login` (the user revoked the App's authorization, or it expired). */
  revokeTokensOf(login: string): void {
    for (const [token, user] of this.userTokens) if (user.login === login) this.revokedTokens.add(token);
  }

  /** GitHub's OAuth web flow: the authorize page and the code exchange (outside /api/v3, as on GHES). */
  private oauth(method: string, url: URL, raw: string, body: unknown, res: ServerResponse): boolean {
    const json = (status: number, data: unknown) => {
      res.writeHead(status, { "content-type": "application/json; charset=utf-8" });
      res.end(JSON.stringify(data));
      return true;
    };
    if (method === "GET" && url.pathname === "/login/oauth/authorize") {
      const redirect = url.searchParams.get("redirect_uri");
      const state = url.searchParams.get("state") ?? "";
      if (url.searchParams.get("client_id") !== this.oauthClient.id || !redirect) {
        res.writeHead(404, { "content-type": "text/html; charset=utf-8" });
        res.end("<!doctype html><title>GitHub</title><p>Not Found</p>");
        return true;
      }
      if (!this.signedInUser) {
        res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
        res.end("<!doctype html><title>GitHub</title><h1>Sign in to GitHub</h1>");
        return true;
      }
      const back = new URL(redirect);
      if (this.denyAuthorization) back.searchParams.set("error", "access_denied");
      else back.searchParams.set("code", this.issueCode(this.signedInUser, redirect));
      back.searchParams.set("state", state);
      res.writeHead(302, { location: back.href });
      res.end();
      return true;
    }
    if (method === "POST" && url.pathname === "/login/oauth/access_token") {
      const form: Record<string, unknown> =
        body && typeof body === "object"
          ? (body as Record<string, unknown>)
          : Object.fromEntries(new URLSearchParams(raw));
      if (form.client_id !== this.oauthClient.id || form.client_secret !== this.oauthClient.secret)
        return json(200, { error: "incorrect_client_credentials" });
      const issued = typeof form.code === "string" ? this.oauthCodes.get(form.code) : undefined;
      if (!issued)
        return json(200, {
          error: "bad_verification_code",
          error_description: "The code passed is incorrect or expired.",
        });
      this.oauthCodes.delete(form.code as string);
      if (issued.redirectUri && form.redirect_uri !== issued.redirectUri)
        return json(200, { error: "redirect_uri_mismatch" });
      const token = `ghu_${randomBytes(18).toString("hex")}`;
      this.userTokens.set(token, issued.user);
      return json(200, {
        access_token: token,
        token_type: "bearer",
        scope: "",
        expires_in: 28800,
        refresh_token: `ghr_${randomBytes(18).toString("hex")}`,
        refresh_token_expires_in: 15811200,
      });
    }
    return false;
  }

  /** The user a request's `Authorization: token|Bearer ghu_…` belongs to; "revoked" for a revoked or unknown one. */
  private userOf(authorization: string | undefined): FakeUser | "revoked" | undefined {
    const token = authorization?.match(/^(?:token|bearer)\s+(ghu_\S+)$/i)?.[1];
    if (!token) return undefined;
    const user = this.userTokens.get(token);
    return !user || this.revokedTokens.has(token) ? "revoked" : user;
  }

  /** Answer every request matching `method` and `path` with an error status (e.g. 403 for a read-only token). */
  failWith(method: string, path: RegExp, status: number, message = "Resource not accessible by integration") {
    this.faults.push({ method, path, status, body: { message, status: String(status) }, times: Infinity });
  }

  /** The fault this request meets, used up as it is served. */
  private takeFault(method: string, path: string): Fault | undefined {
    const index = this.faults.findIndex((f) => f.method === method && f.path.test(path));
    if (index < 0) return undefined;
    const fault = this.faults[index]!;
    const left = (fault.times ?? 1) - 1;
    if (left <= 0) this.faults.splice(index, 1);
    else fault.times = left;
    return fault;
  }

  /** Seed a comment, e.g. one written earlier by the App. */
  addComment(issue: string, body: string): FakeComment {
    const id = this.nextId++;
    const comment = {
      id,
      body,
      issue,
      html_url: `https://github.com/${issue.replace("#", "/issues/")}#issuecomment-${id}`,
      created_at: new Date(Date.UTC(2026, 0, 1, 0, 0, id % 60)).toISOString(),
    };
    this.comments.push(comment);
    return comment;
  }

  commentsOn(issue: string): FakeComment[] {
    return this.comments.filter((c) => c.issue === issue);
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const raw = Buffer.concat(chunks).toString("utf8");
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    const method = req.method ?? "GET";
    let body: unknown;
    try {
      body = raw ? JSON.parse(raw) : undefined;
    } catch {
      body = raw;
    }
    const pathname = url.pathname.replace(/^\/api\/v3(?=\/)/, "");
    const recorded = {
      method,
      path: pathname,
      query: url.search,
      at: performance.now(),
      authorization: req.headers.authorization,
      body,
    };
    this.requests.push(recorded);
    this.onRequest?.(recorded);
    if (this.delayMs) await new Promise((r) => setTimeout(r, this.delayMs));

    const fault = this.takeFault(method, pathname);
    const fail = (f: Fault) => {
      res.writeHead(f.status, { "content-type": "application/json; charset=utf-8", ...f.headers });
      res.end(JSON.stringify(f.body ?? { message: "fault" }));
    };
    if (fault && !fault.afterWork) return fail(fault);
    const send = (status: number, data?: unknown) => {
      if (fault) return fail(fault);
      res.writeHead(status, { "content-type": "application/json; charset=utf-8" });
      res.end(data === undefined ? "" : JSON.stringify(data));
    };

    if (pathname === "/llm/v1/chat/completions" && method === "POST") return this.chat(body, send);
    if (this.manifest.handle(method, url.pathname, url.searchParams, raw, this.url, res)) return;
    if (this.oauth(method, url, raw, body, res)) return;
    // A user-to-server token (sign-in): who it is, and the repositories GitHub shows that user.
    const user = this.userOf(req.headers.authorization);
    if (user === "revoked") return send(401, { message: "Bad credentials" });
    if (user && method === "GET" && pathname === "/user")
      return send(200, { login: user.login, id: user.id });
    const userRepo = pathname.match(/^\/repos\/([^/]+)\/([^/]+)$/);
    if (user && method === "GET" && userRepo) {
      const key = `${decodeURIComponent(userRepo[1]!)}/${decodeURIComponent(userRepo[2]!)}`;
      const known = this.repoIssues.has(key) || this.privateRepos.has(key);
      const granted = this.userAccess.get(user.login)?.has(key.toLowerCase()) ?? false;
      if (!granted && (!known || this.privateRepos.has(key))) return send(404, { message: "Not Found" });
      return send(200, {
        full_name: key,
        private: this.privateRepos.has(key),
        permissions: { admin: false, maintain: false, push: false, triage: false, pull: true },
      });
    }
    let m: RegExpMatchArray | null;
    if (method === "POST" && (m = pathname.match(/^\/app\/installations\/(\d+)\/access_tokens$/))) {
      return send(201, {
        token: `ghs_fake_${m[1]}`,
        expires_at: "2099-01-01T00:00:00Z",
        permissions: { issues: "write" },
      });
    }

    // GraphQL (github.com /graphql, GHE /api/graphql): Projects v2 lookups and mutations.
    if (method === "POST" && (pathname === "/graphql" || pathname === "/api/graphql"))
      return send(200, this.graphql(body));

    const path = pathname.split("/").map(decodeURIComponent);
    // ["", "repos", owner, repo, ...rest]
    if (path[1] !== "repos" || !path[2] || !path[3]) return send(404, { message: "Not Found" });
    const repoKey = `${path[2]}/${path[3]}`;
    const rest = path.slice(4);
    const input = (body ?? {}) as Record<string, unknown>;

    if (this.rateLimitCountsDown) this.rateLimitRemaining = Math.max(0, this.rateLimitRemaining - 1);
    const limits = {
      "x-ratelimit-limit": "5000",
      "x-ratelimit-remaining": String(this.rateLimitRemaining),
      "x-ratelimit-used": String(Math.max(0, 5000 - this.rateLimitRemaining)),
      "x-ratelimit-reset": String(this.rateLimitReset),
      "x-ratelimit-resource": "core",
    };
    const issues = this.repoIssues.get(repoKey);
    if (method === "GET" && rest.length === 0 && issues) {
      if (fault) return fail(fault);
      res.writeHead(200, { "content-type": "application/json; charset=utf-8", ...limits });
      res.end(
        JSON.stringify({
          full_name: repoKey,
          private: this.privateRepos.has(repoKey),
          open_issues_count: issues.filter((i) => (i.state ?? "open") === "open").length,
        }),
      );
      return;
    }
    if (method === "GET" && rest[0] === "collaborators" && rest[2] === "permission") {
      const role = this.roles.get(`${repoKey}:${rest[1]}`);
      return role
        ? send(200, { permission: role, role_name: role, user: { login: rest[1] } })
        : send(404, { message: "Not Found" });
    }
    if (method === "POST" && rest[0] === "issues" && rest[1] === "comments" && rest[3] === "reactions") {
      return send(201, { id: 1, content: input.content });
    }
    if (method === "GET" && rest.length === 1 && rest[0] === "installation") {
      return issues ? send(200, { id: 2, account: { login: path[2] } }) : send(404, { message: "Not Found" });
    }
    // The open issues, newest first, pages with a Link header and an ETag (304 when it still matches).
    if (method === "GET" && rest.length === 1 && rest[0] === "issues" && issues) {
      if (fault) return fail(fault);
      const perPage = Math.min(100, Number(url.searchParams.get("per_page") ?? 30));
      const page = Number(url.searchParams.get("page") ?? 1);
      const wanted = url.searchParams.get("state") ?? "open";
      const sorted = issues
        .filter((i) => wanted === "all" || (i.state ?? "open") === wanted)
        .sort((a, b) => b.number - a.number);
      const items = sorted.slice((page - 1) * perPage, page * perPage).map((i) => issueJson(repoKey, i));
      const json = JSON.stringify(items);
      const etag = `"${createHash("sha1").update(json).digest("hex")}"`;
      const headers: Record<string, string> = {
        "content-type": "application/json; charset=utf-8",
        "content-length": String(Buffer.byteLength(json)),
        etag,
        ...limits,
      };
      // next and last, then first and prev, as GitHub writes them.
      const last = Math.max(1, Math.ceil(sorted.length / perPage));
      const at = (p: number) => {
        const u = new URL(url.href.replace("http://127.0.0.1", this.url));
        u.searchParams.set("page", String(p));
        return u.href;
      };
      const links = [
        ...(page < last ? [`<${at(page + 1)}>; rel="next"`, `<${at(last)}>; rel="last"`] : []),
        ...(page > 1 ? [`<${at(1)}>; rel="first"`, `<${at(page - 1)}>; rel="prev"`] : []),
      ];
      if (links.length > 0) headers.link = links.join(", ");
      if (req.headers["if-none-match"] === etag) {
        res.writeHead(304, headers);
        res.end();
        return;
      }
      res.writeHead(200, headers);
      res.end(json);
      return;
    }

    // A pull request's files, page by page (GitHub lists at most 3,000).
    if (method === "GET" && rest[0] === "pulls" && rest[2] === "files" && rest.length === 3) {
      const files = this.pullFiles.get(`${repoKey}#${rest[1]}`);
      if (!files) return send(404, { message: "Not Found" });
      const perPage = Math.min(100, Number(url.searchParams.get("per_page") ?? 30));
      const page = Number(url.searchParams.get("page") ?? 1);
      const listed = files.slice(0, 3000);
      return send(200, listed.slice((page - 1) * perPage, page * perPage));
    }
    // One issue (the backfill should never need one: the benchmark counts them).
    if (method === "GET" && rest[0] === "issues" && rest.length === 2 && /^\d+$/.test(rest[1]!)) {
      const issue = issues?.find((i) => i.number === Number(rest[1]));
      if (!issue) return send(404, { message: "Not Found" });
      if (fault) return fail(fault);
      const json = JSON.stringify(issueJson(repoKey, issue));
      res.writeHead(200, { "content-type": "application/json; charset=utf-8", ...limits });
      res.end(json);
      return;
    }
    // A pull request (its head commit, for check runs) and check runs.
    if (method === "GET" && rest[0] === "pulls" && rest.length === 2) {
      const pr = issues?.find((i) => i.number === Number(rest[1]) && i.pull_request);
      return pr
        ? send(200, {
            number: pr.number,
            node_id: nodeIdOf(repoKey, pr.number),
            head: { sha: headShaOf(pr.number) },
          })
        : send(404, { message: "Not Found" });
    }
    if (method === "GET" && rest[0] === "commits" && rest[2] === "check-runs" && rest.length === 3) {
      const name = url.searchParams.get("check_name");
      const runs = this.checkRuns
        .filter((r) => r.repository === repoKey && r.head_sha === rest[1] && (!name || r.name === name))
        .reverse();
      return send(200, { total_count: runs.length, check_runs: runs });
    }
    if (method === "POST" && rest[0] === "check-runs" && rest.length === 1) {
      const run = { id: this.nextId++, ...input, repository: repoKey };
      this.checkRuns.push(run);
      return send(201, run);
    }

    // Repository files: only the App's config, when a test set one (served raw, as GitHub does).
    if (rest[0] === "contents" && method === "GET") {
      const file = rest.slice(1).join("/");
      const config =
        this.configFiles.get(`${repoKey}:${file}`) ??
        (file === ".github/task-scorer.yml" ? this.configFiles.get(repoKey) : undefined);
      if (config === undefined) return send(404, { message: "Not Found" });
      if (fault) return fail(fault);
      res.writeHead(200, { "content-type": "text/plain; charset=utf-8" });
      res.end(config);
      return;
    }

    // Issue comments
    if (rest[0] === "issues" && rest[2] === "comments" && rest.length === 3) {
      const issue = `${repoKey}#${rest[1]}`;
      if (method === "GET") return send(200, this.commentsOn(issue).map(publicComment));
      if (method === "POST") {
        if (typeof input.body !== "string") return send(422, { message: "body is required" });
        return send(201, publicComment(this.addComment(issue, input.body)));
      }
    }
    if (rest[0] === "issues" && rest[1] === "comments" && rest.length === 3) {
      const comment = this.comments.find((c) => c.id === Number(rest[2]));
      if (!comment) return send(404, { message: "Not Found" });
      if (method === "GET") return send(200, publicComment(comment));
      if (method === "PATCH") {
        if (typeof input.body !== "string") return send(422, { message: "body is required" });
        comment.body = input.body;
        return send(200, publicComment(comment));
      }
      if (method === "DELETE") {
        this.comments.splice(this.comments.indexOf(comment), 1);
        return send(204);
      }
    }

    // Labels on an issue
    if (rest[0] === "issues" && rest[2] === "labels") {
      const issue = `${repoKey}#${rest[1]}`;
      const current = this.issueLabels.get(issue) ?? [];
      const asLabels = (names: string[]) => names.map((name) => ({ name }));
      if (rest.length === 3 && method === "GET") return send(200, asLabels(current));
      if (rest.length === 3 && method === "POST") {
        const names = Array.isArray(input.labels) ? (input.labels as string[]) : [];
        for (const n of names) if (!current.includes(n)) current.push(n);
        this.issueLabels.set(issue, current);
        return send(200, asLabels(current));
      }
      if (rest.length === 4 && method === "DELETE") {
        const name = rest[3]!;
        if (!current.includes(name)) return send(404, { message: "Label does not exist" });
        this.issueLabels.set(
          issue,
          current.filter((n) => n !== name),
        );
        return send(200, asLabels(this.issueLabels.get(issue)!));
      }
    }

    // Labels of the repository
    if (rest[0] === "labels") {
      const labels = this.repoLabels.get(repoKey) ?? new Map();
      this.repoLabels.set(repoKey, labels);
      if (rest.length === 2 && method === "GET") {
        const label = labels.get(rest[1]!);
        return label ? send(200, label) : send(404, { message: "Not Found" });
      }
      if (rest.length === 1 && method === "POST") {
        const name = String(input.name);
        if (labels.has(name)) return send(422, { message: "Validation Failed" });
        const label = { name, color: String(input.color) };
        labels.set(name, label);
        return send(201, label);
      }
    }
    return send(404, { message: "Not Found" });
  }

  /** A board the App may reach; `fields` are its fields besides the built-in ones. */
  addProject(
    scope: "organization" | "user",
    login: string,
    number: number,
    fields: { name: string; dataType: string }[] = [],
  ): FakeProject {
    const project: FakeProject = {
      id: `PVT_${scope}_${login}_${number}`,
      fields: [
        { id: "PVTF_title", name: "Title", dataType: "TITLE" },
        ...fields.map((f, i) => ({ id: `PVTF_${i}`, ...f })),
      ],
      items: new Map(),
    };
    this.projects.set(`${scope}:${login}:${number}`, project);
    return project;
  }

  private graphql(body: unknown): unknown {
    const { query = "", variables = {} } = (body ?? {}) as {
      query?: string;
      variables?: Record<string, unknown>;
    };
    this.graphqlCalls.push({ query, variables });
    const byId = (id: unknown) => [...this.projects.values()].find((p) => p.id === id);
    const notFound = (what: string) => ({
      data: null,
      errors: [{ type: "NOT_FOUND", message: `Could not resolve ${what}` }],
    });
    if (query.includes("createProjectV2Field")) {
      const p = byId(variables.projectId);
      if (!p) return notFound("to a node");
      const field = { id: `PVTF_new_${this.nextId++}`, name: String(variables.name), dataType: "NUMBER" };
      p.fields.push(field);
      return { data: { createProjectV2Field: { projectV2Field: { id: field.id } } } };
    }
    if (query.includes("addProjectV2ItemById")) {
      const p = byId(variables.projectId);
      if (!p) return notFound("to a node");
      const contentId = String(variables.contentId);
      const item = p.items.get(contentId) ?? {
        id: `PVTI_${this.nextId++}`,
        values: new Map<string, number>(),
      };
      p.items.set(contentId, item);
      return { data: { addProjectV2ItemById: { item: { id: item.id } } } };
    }
    if (query.includes("updateProjectV2ItemFieldValue")) {
      const p = byId(variables.projectId);
      const item = p && [...p.items.values()].find((i) => i.id === variables.itemId);
      if (!p || !item || !p.fields.some((f) => f.id === variables.fieldId)) return notFound("to a node");
      item.values.set(String(variables.fieldId), Number(variables.value));
      return { data: { updateProjectV2ItemFieldValue: { projectV2Item: { id: item.id } } } };
    }
    const scope = /\b(organization|user)\(login/.exec(query)?.[1];
    if (scope && query.includes("projectV2(number")) {
      const p = this.projects.get(`${scope}:${String(variables.login)}:${String(variables.number)}`);
      if (!p)
        return {
          data: { owner: { projectV2: null } },
          errors: [
            {
              type: "NOT_FOUND",
              message: `Could not resolve to a ProjectV2 with the number ${String(variables.number)}.`,
            },
          ],
        };
      return {
        data: { owner: { projectV2: { id: p.id, fields: { nodes: p.fields.map((f) => ({ ...f })) } } } },
      };
    }
    return { errors: [{ message: "unsupported query in the stand-in" }] };
  }

  private chat(body: unknown, send: (status: number, data?: unknown) => void): void {
    if (this.llmFailStatus !== undefined) {
      return send(this.llmFailStatus, {
        error: {
          message: "Incorrect API key provided.",
          type: "invalid_request_error",
          code: "invalid_api_key",
        },
      });
    }
    const request = body as { model?: string; messages?: { content?: string }[] };
    const expert = /You are the (.+?) on a jury/.exec(request.messages?.[0]?.content ?? "")?.[1] ?? "expert";
    const content = JSON.stringify({
      score: this.llmScore,
      reasoning: `As the ${expert} I see a clear reason for this score.`,
    });
    send(200, {
      id: "chatcmpl-fake",
      object: "chat.completion",
      created: 1_700_000_000,
      model: request.model ?? "fake-model",
      choices: [{ index: 0, message: { role: "assistant", content, refusal: null }, finish_reason: "stop" }],
      usage: { prompt_tokens: 300, completion_tokens: 40, total_tokens: 340 },
    });
  }
}

export interface FakeProject {
  id: string;
  fields: { id: string; name: string; dataType: string }[];
  /** Items by content node id, with their number field values by field id. */
  items: Map<string, { id: string; values: Map<string, number> }>;
}

/** The App manifest flow of `FakeGitHub.manifest`. */
class FakeManifestFlow {
  /** Manifests received, with the account they were posted for ("personal" or the organisation). */
  readonly received: { owner: string; state: string; manifest: Record<string, any> }[] = [];
  /** The codes the API was asked to convert, in order. */
  readonly conversions: string[] = [];
  readonly webhookSecret = randomBytes(20).toString("hex");
  /** The App's OAuth client, which GitHub returns with the credentials (sign-in uses it). */
  readonly clientId = `Iv1.${randomBytes(8).toString("hex")}`;
  readonly clientSecret = randomBytes(20).toString("hex");
  private readonly codes = new Map<string, { redirect: string; state: string }>();
  private key: string | undefined;

  /** The App's private key (PKCS#1 PEM, as GitHub gives it). */
  get pem(): string {
    return (this.key ??= generateKeyPairSync("rsa", {
      modulusLength: 2048,
      privateKeyEncoding: { type: "pkcs1", format: "pem" },
      publicKeyEncoding: { type: "spki", format: "pem" },
    }).privateKey);
  }

  reset(): void {
    this.received.length = 0;
    this.conversions.length = 0;
    this.codes.clear();
  }

  /** Answers the flow's requests (`pathname` as sent, /api/v3 included); false for any other. */
  handle(
    method: string,
    pathname: string,
    query: URLSearchParams,
    raw: string,
    base: string,
    res: ServerResponse,
  ): boolean {
    const html = (status: number, body: string) => {
      res.writeHead(status, { "content-type": "text/html; charset=utf-8" });
      res.end(`<!doctype html><html lang="en"><head><title>GitHub</title></head><body>${body}</body></html>`);
      return true;
    };
    const form = pathname.match(/^(?:\/organizations\/([^/]+))?\/settings\/apps\/new$/);
    if (method === "POST" && form) {
      const manifest = JSON.parse(new URLSearchParams(raw).get("manifest") ?? "{}") as Record<string, any>;
      const state = query.get("state") ?? "";
      const owner = form[1] ? decodeURIComponent(form[1]) : "personal";
      this.received.push({ owner, state, manifest });
      const code = randomBytes(10).toString("hex");
      this.codes.set(code, { redirect: String(manifest.redirect_url), state });
      return html(
        200,
        `<h1>Create GitHub App ${escapeHtml(String(manifest.name))}</h1>
         <form method="post" action="/settings/apps/new/confirm"><input type="hidden" name="code" value="${code}">
         <button type="submit">Create GitHub App for ${escapeHtml(owner)}</button></form>`,
      );
    }
    if (method === "POST" && pathname === "/settings/apps/new/confirm") {
      const code = new URLSearchParams(raw).get("code") ?? "";
      const pending = this.codes.get(code);
      if (!pending) return html(404, "unknown code");
      const back = new URL(pending.redirect);
      back.searchParams.set("code", code);
      back.searchParams.set("state", pending.state);
      res.writeHead(302, { location: back.href });
      res.end();
      return true;
    }
    const conversion = pathname.match(/^\/api\/v3\/app-manifests\/([^/]+)\/conversions$/);
    if (method === "POST" && conversion) {
      const code = decodeURIComponent(conversion[1]!);
      this.conversions.push(code);
      res.setHeader("content-type", "application/json; charset=utf-8");
      if (!this.codes.delete(code)) {
        res.writeHead(404);
        res.end(JSON.stringify({ message: "Not Found" }));
        return true;
      }
      res.writeHead(201);
      res.end(
        JSON.stringify({
          id: 4242,
          slug: "task-scorer",
          name: "task-scorer",
          html_url: `${base}/apps/task-scorer`,
          client_id: this.clientId,
          client_secret: this.clientSecret,
          webhook_secret: this.webhookSecret,
          pem: this.pem,
          owner: { login: "octocat" },
        }),
      );
      return true;
    }
    return false;
  }
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** A user as GitHub writes one into an issue. */
function userJson(login: string, id: number) {
  return {
    login,
    id,
    node_id: `MDQ6VXNlcj${id}`,
    avatar_url: `https://avatars.githubusercontent.com/u/${id}?v=4`,
    gravatar_id: "",
    url: `https://api.github.com/users/${login}`,
    html_url: `https://github.com/${login}`,
    followers_url: `https://api.github.com/users/${login}/followers`,
    following_url: `https://api.github.com/users/${login}/following{/other_user}`,
    gists_url: `https://api.github.com/users/${login}/gists{/gist_id}`,
    starred_url: `https://api.github.com/users/${login}/starred{/owner}{/repo}`,
    subscriptions_url: `https://api.github.com/users/${login}/subscriptions`,
    organizations_url: `https://api.github.com/users/${login}/orgs`,
    repos_url: `https://api.github.com/users/${login}/repos`,
    events_url: `https://api.github.com/users/${login}/events{/privacy}`,
    received_events_url: `https://api.github.com/users/${login}/received_events`,
    type: "User",
    user_view_type: "public",
    site_admin: false,
  };
}

/**
 * One item of `GET /repos/{owner}/{repo}/issues` (pull requests included), or `GET …/issues/{n}`, of GitHub's own
 * shape and size: what the backfill parses, and what the benchmarks' memory figures are made of.
 */
function issueJson(repo: string, i: FakeIssue) {
  const api = `https://api.github.com/repos/${repo}/issues/${i.number}`;
  const author = userJson(`user${i.number % 97}`, 1000 + (i.number % 97));
  const closed = i.state === "closed";
  const updated = i.updated_at ?? "2026-01-02T00:00:00Z";
  return {
    url: api,
    repository_url: `https://api.github.com/repos/${repo}`,
    labels_url: `${api}/labels{/name}`,
    comments_url: `${api}/comments`,
    events_url: `${api}/events`,
    html_url: `https://github.com/${repo}/${i.pull_request ? "pull" : "issues"}/${i.number}`,
    id: 2_000_000_000 + i.number,
    node_id: nodeIdOf(repo, i.number),
    number: i.number,
    title: i.title,
    user: author,
    labels: (i.labels ?? []).map((name, k) => ({
      id: 5_000_000 + k,
      node_id: `LA_kwDOStandIn${k}`,
      url: `https://api.github.com/repos/${repo}/labels/${encodeURIComponent(name)}`,
      name,
      color: "d73a4a",
      default: k === 0,
      description: `Label ${name}`,
    })),
    state: i.state ?? "open",
    locked: false,
    assignee: i.number % 4 === 0 ? author : null,
    assignees: i.number % 4 === 0 ? [author] : [],
    milestone: null,
    comments: i.number % 7,
    created_at: i.created_at ?? "2026-01-01T00:00:00Z",
    updated_at: updated,
    closed_at: closed ? (i.closed_at ?? updated) : null,
    author_association: "CONTRIBUTOR",
    type: null,
    active_lock_reason: null,
    sub_issues_summary: { total: 0, completed: 0, percent_completed: 0 },
    body: i.body,
    closed_by: closed ? userJson("maintainer", 42) : null,
    reactions: {
      url: `${api}/reactions`,
      total_count: i.number % 5,
      "+1": i.number % 5,
      "-1": 0,
      laugh: 0,
      hooray: 0,
      confused: 0,
      heart: 0,
      rocket: 0,
      eyes: 0,
    },
    timeline_url: `${api}/timeline`,
    performed_via_github_app: null,
    state_reason: closed ? (i.state_reason ?? null) : null,
    ...(i.pull_request
      ? {
          draft: false,
          pull_request: {
            url: `https://api.github.com/repos/${repo}/pulls/${i.number}`,
            html_url: `https://github.com/${repo}/pull/${i.number}`,
            diff_url: `https://github.com/${repo}/pull/${i.number}.diff`,
            patch_url: `https://github.com/${repo}/pull/${i.number}.patch`,
            merged_at: null,
          },
        }
      : {}),
  };
}

/** The node id the stand-in gives an issue or pull request. */
export function nodeIdOf(repoKey: string, number: number): string {
  return `NODE_${repoKey}#${number}`;
}

/** The head commit the stand-in gives a pull request. */
export function headShaOf(number: number): string {
  return String(number).padStart(40, "a");
}

function publicComment(c: FakeComment) {
  return { id: c.id, body: c.body, html_url: c.html_url, created_at: c.created_at };
}

export async function startFakeGitHub(): Promise<FakeGitHub> {
  return new FakeGitHub().start();
}
