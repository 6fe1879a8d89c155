// A stand-in for the part of GitHub's REST API that the backlog's backfill and learning (its closed issues, with
// `state_reason` and labels) use, answering as GitHub does: issue objects of GitHub's own shape and size, pages
// of at most 100 with `Link` (next, last) and `ETag`, and the rate-limit headers on every answer
// (`x-ratelimit-limit`, `-remaining` counting down, `-used`, `-reset`, `-resource`). Every request is
// recorded, and each answer waits `delayMs` first (GitHub's own latency, which the benchmark does not count as
// the service's time).
import { createHash } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export interface StandInIssue {
  number: number;
  title: string;
  body: string;
  labels: string[];
  pullRequest: boolean;
  createdAt: string;
  updatedAt: string;
  /** Open unless said otherwise; closed ones are listed with `state=closed` (learning reads them). */
  state?: "open" | "closed";
  /** Closed ones: "completed", "not_planned", "duplicate" or null, as GitHub's `state_reason`. */
  stateReason?: "completed" | "not_planned" | "duplicate" | null;
  closedAt?: string;
}

export interface StandInRequest {
  method: string;
  /** Without the /api/v3 prefix (GitHub Enterprise's), and without the query. */
  path: string;
  query: string;
  at: number;
}

const user = (login: string, id: number) => ({
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
});

/** One item of `GET /repos/{owner}/{repo}/issues`, as GitHub writes it (pull requests included). */
function issueJson(repo: string, i: StandInIssue) {
  const api = `https://api.github.com/repos/${repo}/issues/${i.number}`;
  const author = user(`user${i.number % 97}`, 1000 + (i.number % 97));
  return {
    url: api,
    repository_url: `https://api.github.com/repos/${repo}`,
    labels_url: `${api}/labels{/name}`,
    comments_url: `${api}/comments`,
    events_url: `${api}/events`,
    html_url: `https://github.com/${repo}/${i.pullRequest ? "pull" : "issues"}/${i.number}`,
    id: 2_000_000_000 + i.number,
    node_id: `I_kwDOBench${i.number}`,
    number: i.number,
    title: i.title,
    user: author,
    labels: i.labels.map((name, k) => ({
      id: 5_000_000 + k,
      node_id: `LA_kwDOBench${k}`,
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
    created_at: i.createdAt,
    updated_at: i.updatedAt,
    closed_at: i.state === "closed" ? (i.closedAt ?? i.updatedAt) : null,
    author_association: "CONTRIBUTOR",
    type: null,
    active_lock_reason: null,
    sub_issues_summary: { total: 0, completed: 0, percent_completed: 0 },
    body: i.body,
    closed_by: i.state === "closed" ? user("maintainer", 42) : null,
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
    state_reason: i.state === "closed" ? (i.stateReason ?? null) : null,
    ...(i.pullRequest
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

export class GitHubStandIn {
  readonly requests: StandInRequest[] = [];
  /** Issues and pull requests of each repository (open unless marked closed), by "owner/repo". */
  readonly repos = new Map<string, StandInIssue[]>();
  /** GitHub's latency, before every answer. */
  delayMs = 0;
  /** Called as each request arrives (before the delay): the benchmark samples the service's memory here. */
  onRequest: ((r: StandInRequest) => void) | undefined;
  private remaining = 5000;
  private readonly reset = Math.floor(Date.now() / 1000) + 3600;
  private server: Server | undefined;
  host = "";

  async start(): Promise<this> {
    this.server = createServer((req, res) => void this.handle(req, res));
    await new Promise<void>((resolve) => this.server!.listen(0, "127.0.0.1", resolve));
    this.host = `127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  async close(): Promise<void> {
    await new Promise<void>((resolve) => {
      if (!this.server) return resolve();
      this.server.closeAllConnections();
      this.server.close(() => resolve());
    });
  }

  private limits(): Record<string, string> {
    this.remaining = Math.max(0, this.remaining - 1);
    return {
      "x-ratelimit-limit": "5000",
      "x-ratelimit-remaining": String(this.remaining),
      "x-ratelimit-used": String(5000 - this.remaining),
      "x-ratelimit-reset": String(this.reset),
      "x-ratelimit-resource": "core",
      "x-github-api-version-selected": "2022-11-28",
    };
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    for await (const chunk of req) void chunk; // the body is not needed
    const url = new URL(req.url ?? "/", `http://${this.host}`);
    const method = req.method ?? "GET";
    const path = url.pathname.replace(/^\/api\/v3(?=\/)/, "");
    const request = { method, path, query: url.search, at: performance.now() };
    this.requests.push(request);
    this.onRequest?.(request);
    if (this.delayMs) await new Promise((r) => setTimeout(r, this.delayMs));
    const send = (status: number, data: unknown, extra: Record<string, string> = {}) => {
      const body = data === undefined ? "" : JSON.stringify(data);
      res.writeHead(status, {
        "content-type": "application/json; charset=utf-8",
        "content-length": String(Buffer.byteLength(body)),
        ...extra,
      });
      res.end(body);
    };
    const notFound = () =>
      send(
        404,
        { message: "Not Found", documentation_url: "https://docs.github.com/rest", status: "404" },
        this.limits(),
      );

    let m: RegExpMatchArray | null;
    if (method === "POST" && (m = /^\/app\/installations\/(\d+)\/access_tokens$/.exec(path)))
      return send(201, {
        token: `ghs_bench_${m[1]}`,
        expires_at: new Date(Date.now() + 3600_000).toISOString(),
        permissions: { issues: "write", metadata: "read" },
        repository_selection: "all",
      });
    m = /^\/repos\/([^/]+)\/([^/]+)(\/.*)?$/.exec(path);
    const key = m ? `${decodeURIComponent(m[1]!)}/${decodeURIComponent(m[2]!)}` : "";
    const issues = this.repos.get(key);
    if (!m || !issues || method !== "GET") return notFound();
    const rest = m[3] ?? "";
    if (rest === "")
      return send(
        200,
        {
          id: 1,
          name: key.split("/")[1],
          full_name: key,
          private: false,
          open_issues_count: issues.filter((i) => (i.state ?? "open") === "open").length,
        },
        this.limits(),
      );
    if (rest === "/installation") return send(200, { id: 2, account: { login: key.split("/")[0] } });
    if (rest === "/issues") {
      const perPage = Math.min(100, Number(url.searchParams.get("per_page") ?? 30));
      const page = Math.max(1, Number(url.searchParams.get("page") ?? 1));
      // `state`: open by default, as GitHub's; closed, or all.
      const wanted = url.searchParams.get("state") ?? "open";
      const sorted = issues
        .filter((i) => wanted === "all" || (i.state ?? "open") === wanted)
        .sort((a, b) => b.number - a.number); // newest first, by number (for any `sort` asked)
      const items = sorted.slice((page - 1) * perPage, page * perPage).map((i) => issueJson(key, i));
      const body = JSON.stringify(items);
      const etag = `W/"${createHash("sha256").update(body).digest("hex")}"`;
      const last = Math.max(1, Math.ceil(sorted.length / perPage));
      const at = (p: number) => {
        const u = new URL(`http://${this.host}/api/v3${path}${url.search}`);
        u.searchParams.set("page", String(p));
        return u.href;
      };
      const links = [
        ...(page < last ? [`<${at(page + 1)}>; rel="next"`, `<${at(last)}>; rel="last"`] : []),
        ...(page > 1 ? [`<${at(1)}>; rel="first"`, `<${at(page - 1)}>; rel="prev"`] : []),
      ];
      const headers = { etag, ...this.limits(), ...(links.length ? { link: links.join(", ") } : {}) };
      if (req.headers["if-none-match"] === etag) {
        res.writeHead(304, headers);
        return void res.end();
      }
      return send(200, items, headers);
    }
    // One issue (a per-issue GET: the backfill should never need one) and everything else.
    if ((m = /^\/issues\/(\d+)$/.exec(rest))) {
      const issue = issues.find((i) => i.number === Number(m![1]));
      return issue ? send(200, issueJson(key, issue), this.limits()) : notFound();
    }
    return notFound();
  }
}
