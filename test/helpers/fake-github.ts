import { createServer, type IncomingMessage, type Server } from "node:http";

export interface FakeComment {
  id: number;
  issue: string;
  body: string;
  created_at: string;
}

/** A one-shot fault: the next matching request gets this answer (after doing its work, if `afterWork`). */
export interface Fault {
  method: string;
  path: RegExp;
  status: number;
  headers?: Record<string, string>;
  body?: unknown;
  /** Do the request's work first, then fail: a comment created whose response is lost. */
  afterWork?: boolean;
}

export interface FakeGitHub {
  faults: Fault[];
  url: string;
  /** Host and port, for GHE_HOST. */
  host: string;
  comments: FakeComment[];
  requests: { method: string; path: string }[];
  /** Delay every response by this many ms (benchmarks). */
  delayMs: number;
  close: () => Promise<void>;
}

async function readBody(req: IncomingMessage): Promise<any> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  const text = Buffer.concat(chunks).toString("utf8");
  return text ? JSON.parse(text) : undefined;
}

/**
 * A small stand-in for the GitHub REST API on loopback (served under /api/v3, as GitHub Enterprise
 * is): installation tokens, config files (always absent), and issue comments kept in memory.
 */
export async function startFakeGitHub(): Promise<FakeGitHub> {
  let nextId = 1000;
  const state = {
    comments: [] as FakeComment[],
    requests: [] as { method: string; path: string }[],
    delayMs: 0,
    faults: [] as Fault[],
  };
  const server: Server = createServer(async (req, res) => {
    const path = (req.url ?? "/").split("?")[0]!.replace(/^\/api\/v3/, "");
    const method = req.method ?? "GET";
    state.requests.push({ method, path });
    const body = await readBody(req);
    if (state.delayMs) await new Promise((r) => setTimeout(r, state.delayMs));
    const faultIndex = state.faults.findIndex((f) => f.method === method && f.path.test(path));
    const fault = faultIndex >= 0 ? state.faults.splice(faultIndex, 1)[0] : undefined;
    const failWith = (f: Fault) => {
      res.writeHead(f.status, { "content-type": "application/json; charset=utf-8", ...f.headers });
      res.end(JSON.stringify(f.body ?? { message: "fault" }));
    };
    if (fault && !fault.afterWork) return failWith(fault);
    const send = (status: number, data: unknown) => {
      if (fault) return failWith(fault);
      res.writeHead(status, { "content-type": "application/json; charset=utf-8" });
      res.end(data === undefined ? "" : JSON.stringify(data));
    };
    let m: RegExpMatchArray | null;
    if (method === "POST" && (m = path.match(/^\/app\/installations\/(\d+)\/access_tokens$/))) {
      return send(201, {
        token: `ghs_fake_${m[1]}`,
        expires_at: "2099-01-01T00:00:00Z",
        permissions: { issues: "write" },
      });
    }
    if (method === "GET" && /^\/repos\/[^/]+\/[^/]+\/contents\//.test(path))
      return send(404, { message: "Not Found" });
    if ((m = path.match(/^\/repos\/([^/]+)\/([^/]+)\/issues\/(\d+)\/comments$/))) {
      const issue = `${m[1]}/${m[2]}#${m[3]}`;
      if (method === "GET")
        return send(
          200,
          state.comments.filter((c) => c.issue === issue),
        );
      if (method === "POST") {
        const comment = {
          id: nextId++,
          issue,
          body: String(body?.body ?? ""),
          created_at: new Date().toISOString(),
        };
        state.comments.push(comment);
        return send(201, comment);
      }
    }
    if ((m = path.match(/^\/repos\/[^/]+\/[^/]+\/issues\/comments\/(\d+)$/))) {
      const comment = state.comments.find((c) => c.id === Number(m![1]));
      if (!comment) return send(404, { message: "Not Found" });
      if (method === "PATCH") {
        comment.body = String(body?.body ?? "");
        return send(200, comment);
      }
      if (method === "DELETE") {
        state.comments.splice(state.comments.indexOf(comment), 1);
        res.writeHead(204).end();
        return;
      }
    }
    send(404, { message: `fake GitHub has no route for ${method} ${path}` });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const addr = server.address();
  const port = typeof addr === "object" && addr ? addr.port : 0;
  return {
    url: `http://127.0.0.1:${port}`,
    host: `127.0.0.1:${port}`,
    get comments() {
      return state.comments;
    },
    get requests() {
      return state.requests;
    },
    get faults() {
      return state.faults;
    },
    get delayMs() {
      return state.delayMs;
    },
    set delayMs(v: number) {
      state.delayMs = v;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
