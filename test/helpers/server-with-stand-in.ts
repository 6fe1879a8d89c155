import type { ChildProcess } from "node:child_process";
import { afterAll, beforeAll } from "@jest/globals";
import { appProcessEnv } from "./app-harness.js";
import { FakeGitHub } from "./fake-github.js";
import { npmStart, type NpmStart } from "./npm-start.js";
import { startBuiltServer } from "./server-build.js";

export type ServerProcess = NpmStart & { child: ChildProcess };

/**
 * The service in processes of its own against the stand-in GitHub, for one test file or describe block: the
 * one set-up of every test that runs the server as a user does. Before the tests: the stand-in starts,
 * `prepare` runs (seed the stand-in, make a database), then `instances` servers start one after another, as
 * `npm run start:prod` runs them from the test build (or through the real `npm start`, which compiles first,
 * when `npmStart`), with the App's settings pointing at the stand-in and `env()`'s added. After them: every
 * server stops (SIGTERM to its process group, waited for; one already gone is skipped), then the stand-in,
 * then `cleanup` runs.
 */
export function serverWithStandIn(
  options: {
    prepare?: (github: FakeGitHub) => void | Promise<void>;
    env?: () => Record<string, string>;
    instances?: number;
    npmStart?: boolean;
    startTimeoutMs?: number;
    /** For the start and the stop as a whole (jest's hook timeout). */
    hookTimeoutMs?: number;
    cleanup?: () => Promise<void>;
  } = {},
): {
  github: FakeGitHub;
  /** The first server. */
  readonly server: ServerProcess;
  readonly servers: readonly ServerProcess[];
} {
  const github = new FakeGitHub();
  const servers: ServerProcess[] = [];
  const hookTimeoutMs = options.hookTimeoutMs ?? 120_000;
  beforeAll(async () => {
    await github.start();
    await options.prepare?.(github);
    const env = appProcessEnv(github, options.env?.() ?? {});
    for (let i = 0; i < (options.instances ?? 1); i++)
      servers.push(
        options.npmStart
          ? await npmStart(env, options.startTimeoutMs)
          : await startBuiltServer(env, options.startTimeoutMs),
      );
  }, hookTimeoutMs);
  afterAll(async () => {
    try {
      await Promise.all(servers.map((s) => s.stop()));
      await github.close();
    } finally {
      await options.cleanup?.();
    }
  }, hookTimeoutMs);
  return {
    github,
    get server() {
      const server = servers[0];
      if (!server) throw new Error("the server did not start (see beforeAll's error)");
      return server;
    },
    servers,
  };
}
