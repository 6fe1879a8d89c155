import { spawn, type ChildProcess } from "node:child_process";

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
export async function npmStart(env: Record<string, string>, startTimeoutMs = 90_000): Promise<NpmStart> {
  return startServerProcess("npm", ["start"], env, startTimeoutMs);
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
