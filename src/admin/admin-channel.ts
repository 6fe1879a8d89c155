/**
 * The admin CLI against a running server on the embedded database. PGlite is one process's (the folder is
 * locked, see folder-lock.ts), so while the server runs, the CLI cannot open it; instead the server listens on a
 * Unix domain socket in the data folder, `DATA_DIR/admin/admin.sock`, and runs the CLI's commands itself, on
 * its own database: a key or a plan change takes effect at once (the change's notice reaches the server's key
 * cache in-process), with no restart.
 *
 * Local only, by the file system: the socket's folder is 0700 and the socket 0600, owned by the server's user,
 * so only that user (and root) can connect; it is never a network port. One request per connection: a JSON line
 * `{"argv": [...]}`; one JSON line back, `{"lines": [...]}` or `{"error": "...", "usage": true|false}`. What a
 * command prints (a new key) goes to the client only, never to the log.
 */
import { chmodSync, lstatSync, mkdirSync, unlinkSync } from "node:fs";
import { createConnection, createServer, type Server, type Socket } from "node:net";
import { join, resolve } from "node:path";
import { isTaskScorerError, UsageError } from "../core/errors.js";
import type { Db } from "../storage/tables.js";
import { commandName } from "./admin-argv.js";

/** The longest request line read (a command line is far shorter). */
const MAX_REQUEST_BYTES = 64 * 1024;
/** A connection that says nothing for this long is closed. */
const IDLE_MS = 30_000;
/** Unix socket paths are at most 107 bytes on Linux (103 on macOS). */
const MAX_SOCKET_PATH = 100;

/** Where the running server's admin socket is, for a data folder; undefined for an in-memory database. */
export function adminSocketPath(dataDir: string): string | undefined {
  if (dataDir.startsWith("memory://")) return undefined;
  return join(resolve(dataDir), "admin", "admin.sock");
}

interface Reply {
  lines?: string[];
  error?: string;
  usage?: boolean;
}

type Execute = (argv: string[], db: Db, out: (line: string) => void, clock?: () => Date) => Promise<void>;

export interface AdminChannel {
  path: string;
  close(): Promise<void>;
}

/**
 * Serve admin commands on the data folder's socket. The caller holds the folder's lock, so a socket file left
 * there is a dead server's and is replaced. Undefined (with a warning) where a socket cannot be made.
 */
export async function serveAdminChannel(options: {
  db: Db;
  dataDir: string;
  execute: Execute;
  log: { info(obj: object, msg: string): void; warn(obj: object, msg: string): void };
  clock?: (() => Date) | undefined;
}): Promise<AdminChannel | undefined> {
  const path = adminSocketPath(options.dataDir);
  if (!path) return undefined;
  if (path.length > MAX_SOCKET_PATH || process.platform === "win32") {
    options.log.warn(
      { path },
      "admin channel off (the data folder's path is too long for a Unix socket): stop the server to run `npm run admin`",
    );
    return undefined;
  }
  const folder = join(path, "..");
  mkdirSync(folder, { recursive: true, mode: 0o700 });
  chmodSync(folder, 0o700);
  try {
    if (lstatSync(path).isSocket()) unlinkSync(path);
  } catch {
    // none left
  }
  const server = createServer((socket) => serve(socket, options));
  await new Promise<void>((ok, fail) => {
    server.once("error", fail);
    server.listen(path, () => {
      server.off("error", fail);
      ok();
    });
  });
  chmodSync(path, 0o600);
  options.log.info({ path }, "admin channel: `npm run admin` works on this running server");
  return {
    path,
    close: () => closeServer(server, path),
  };
}

function closeServer(server: Server, path: string): Promise<void> {
  return new Promise((ok) =>
    server.close(() => {
      try {
        unlinkSync(path);
      } catch {
        // gone already
      }
      ok();
    }),
  );
}

function serve(
  socket: Socket,
  options: {
    db: Db;
    execute: Execute;
    log: { info(obj: object, msg: string): void };
    clock?: (() => Date) | undefined;
  },
): void {
  let buffered = "";
  let done = false;
  socket.setEncoding("utf8");
  socket.setTimeout(IDLE_MS, () => socket.destroy());
  socket.on("error", () => socket.destroy());
  const answer = (reply: Reply) => {
    done = true;
    socket.end(`${JSON.stringify(reply)}\n`);
  };
  socket.on("data", (chunk: string) => {
    if (done) return;
    buffered += chunk;
    const end = buffered.indexOf("\n");
    if (end < 0) {
      if (buffered.length > MAX_REQUEST_BYTES)
        answer({ error: "The admin request is too long.", usage: true });
      return;
    }
    let argv: unknown;
    try {
      argv = (JSON.parse(buffered.slice(0, end)) as { argv?: unknown }).argv;
    } catch {
      argv = undefined;
    }
    if (!Array.isArray(argv) || !argv.every((a) => typeof a === "string")) {
      answer({ error: "The admin request is not a command line.", usage: true });
      return;
    }
    const lines: string[] = [];
    // The command's name only: its arguments and output (a new key) stay between the server and the CLI.
    options.log.info({ command: commandName(argv) }, "admin command on the local channel");
    options
      .execute(argv, options.db, (line) => lines.push(line), options.clock)
      .then(
        () => answer({ lines }),
        (err: unknown) =>
          answer({
            lines,
            error: err instanceof Error ? err.message : String(err),
            usage: err instanceof UsageError || isTaskScorerError(err),
          }),
      );
  });
}

/**
 * Send a command to the running server, if one serves this data folder: true when it answered (its lines are
 * printed, its refusal thrown), false when no server listens (the caller opens the database itself).
 */
export async function askRunningServer(
  dataDir: string,
  argv: string[],
  out: (line: string) => void,
): Promise<boolean> {
  const path = adminSocketPath(dataDir);
  if (!path) return false;
  let socket: Socket;
  try {
    socket = await new Promise<Socket>((ok, fail) => {
      const s = createConnection(path, () => ok(s));
      s.once("error", fail);
    });
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    // No socket, or one a stopped server left behind: nothing runs here.
    if (code === "ENOENT" || code === "ECONNREFUSED" || code === "ENOTDIR") return false;
    if (code === "EACCES")
      throw new UsageError(
        `A task-scorer server runs on ${dataDir}, but its admin channel (${path}) belongs to another user: run the admin command as the user that runs the server.`,
      );
    throw err;
  }
  const text = await new Promise<string>((ok, fail) => {
    let received = "";
    socket.setEncoding("utf8");
    socket.on("data", (c: string) => (received += c));
    socket.once("end", () => ok(received));
    socket.once("error", fail);
    // Written, not ended: the server answers, then closes.
    socket.write(`${JSON.stringify({ argv })}\n`);
  });
  let reply: Reply;
  try {
    reply = JSON.parse(text) as Reply;
  } catch {
    throw new Error(`The running server's admin channel (${path}) gave no answer; see the server's log.`);
  }
  for (const line of reply.lines ?? []) out(line);
  if (reply.error !== undefined) {
    if (reply.usage) throw new UsageError(reply.error);
    throw new Error(`The running server could not run the command: ${reply.error}`);
  }
  return true;
}
