import { spawn, type ChildProcess } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export interface NpmStart {
  /** http://127.0.0.1:<port> */
  base: string;
  /** Everything the process printed so far (JSON log lines). */
  output: () => string;
  /** SIGTERM to the whole process group (npm, sh, node), then wait for it to exit. */
  stop: () => Promise<void>;
}

/**
 * `npm start` itself, as an operator runs it: it compiles, then serves. Own process group, so the
 * server (a grandchild of npm) is stopped with it. Only PATH and HOME are inherited; the rest of
 * the environment is what the test gives.
 */
export async function npmStart(
  env: Record<string, string>,
  startTimeoutMs = 90_000,
): Promise<NpmStart & { child: ChildProcess }> {
  // `npm start` compiles into the tree's one build/: a run on another Node (scripts/test-on-node24.sh, run beside
  // this one by .ci/run) must not compile into it, nor rewrite a file this server is loading, meanwhile.
  const unlock = await lockBuildFolder(startTimeoutMs);
  try {
    const started = await startServerProcess("npm", ["start"], env, startTimeoutMs);
    return {
      ...started,
      stop: async () => {
        try {
          await started.stop();
        } finally {
          unlock();
        }
      },
    };
  } catch (err) {
    unlock();
    throw err;
  }
}

/** A lock folder per tree, held from `npm start`'s compile until its server stops; a dead holder's is taken over. */
async function lockBuildFolder(timeoutMs: number): Promise<() => void> {
  const root = new URL("../..", import.meta.url).pathname;
  const lock = join(
    tmpdir(),
    `task-scorer-npm-start-${createHash("sha256").update(root).digest("hex").slice(0, 12)}`,
  );
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      mkdirSync(lock);
      writeFileSync(join(lock, "pid"), String(process.pid));
      return () => rmSync(lock, { recursive: true, force: true });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
    }
    let holder = 0;
    try {
      holder = Number(readFileSync(join(lock, "pid"), "utf8"));
    } catch {
      // being written or removed: look again
    }
    if (holder && !isAlive(holder)) rmSync(lock, { recursive: true, force: true });
    if (Date.now() > deadline)
      throw new Error(`npm start: the build folder stayed locked (${lock}, pid ${holder})`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}

/**
 * Any command that starts the server (`npm start`, or `node --import tsx src/main.ts` for a quicker start),
 * in its own process group, resolved once it prints the URL it listens on.
 */
export async function startServerProcess(
  command: string,
  args: string[],
  env: Record<string, string>,
  startTimeoutMs = 90_000,
): Promise<NpmStart & { child: ChildProcess }> {
  const name = [command.split("/").pop(), ...args].join(" ");
  let output = "";
  const child: ChildProcess = spawn(command, args, {
    cwd: new URL("../..", import.meta.url).pathname,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, PORT: "0", HOST: "127.0.0.1", ...env },
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  child.stdout!.on("data", (c: Buffer) => (output += c.toString()));
  child.stderr!.on("data", (c: Buffer) => (output += c.toString()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      try {
        process.kill(-child.pid!, "SIGTERM");
      } catch {
        // already gone
      }
    }
    await exited;
  };
  const base = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => {
      void stop();
      reject(new Error(`${name} did not start:\n${output}`));
    }, startTimeoutMs);
    const poll = setInterval(() => {
      const m = output.match(/listening on (http:\/\/[\d.]+:\d+)/);
      if (m) {
        clearInterval(poll);
        clearTimeout(timer);
        resolve(m[1]!);
      }
    }, 20);
    child.once("exit", (code) => {
      clearInterval(poll);
      clearTimeout(timer);
      reject(new Error(`${name} exited (${code}):\n${output}`));
    });
  });
  return { base, output: () => output, stop, child };
}
