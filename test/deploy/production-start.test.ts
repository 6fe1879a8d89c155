import { execFileSync, spawn, spawnSync, type ChildProcess } from "node:child_process";
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { ScoreReportSchema } from "../../src/core/score-report.schema.js";

/**
 * The Dockerfile's steps without Docker (it cannot run on these machines): copy what the image
 * copies, build, prune to production dependencies, start with `npm run start:prod`, ask /healthz.
 * The install is a hard-linked copy of this checkout's node_modules (what `npm ci` installed), so no
 * network is used; `npm prune --omit=dev` then removes the development dependencies from the copy.
 */
const root = new URL("../..", import.meta.url).pathname;
let dir: string;
let child: ChildProcess | undefined;
let base = "";
let output = "";

function run(cmd: string, args: string[]) {
  return execFileSync(cmd, args, { cwd: dir, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "task-scorer-image-"));
  // COPY package.json package-lock.json; RUN npm ci
  for (const file of ["package.json", "package-lock.json", "tsconfig.json", "tsconfig.build.json", "app.yml"])
    cpSync(join(root, file), join(dir, file));
  for (const folder of ["src", "web", "migrations", "assets", "stubs"])
    cpSync(join(root, folder), join(dir, folder), { recursive: true });
  execFileSync("cp", ["-al", join(root, "node_modules"), join(dir, "node_modules")]);
  // npm rewrites this file in place: a real copy, so the checkout's own is never touched.
  rmSync(join(dir, "node_modules", ".package-lock.json"));
  cpSync(join(root, "node_modules", ".package-lock.json"), join(dir, "node_modules", ".package-lock.json"));
  // RUN npm run build && npm prune --omit=dev
  run("npm", ["run", "-s", "build"]);
  run("npm", ["prune", "--omit=dev", "--offline", "--no-audit", "--no-fund"]);
  // A .env as a developer leaves it: read at start, but variables already set win (PORT).
  writeFileSync(join(dir, ".env"), "PORT=1\nAPPROVAL_MIN_AVERAGE=2\n");

  child = spawn("npm", ["run", "-s", "start:prod"], {
    cwd: dir,
    env: { PATH: process.env.PATH, PORT: "0", HOST: "127.0.0.1", NODE_ENV: "production" },
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  base = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start:\n${output}`)), 30_000);
    child!.stdout!.on("data", (chunk: Buffer) => {
      output += chunk.toString();
      const m = output.match(/listening on (http:\/\/[\d.]+:\d+)/);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]!);
      }
    });
    child!.stderr!.on("data", (c: Buffer) => (output += c.toString()));
    child!.on("exit", (code) => reject(new Error(`server exited with ${code}:\n${output}`)));
  });
}, 180_000);

afterAll(async () => {
  if (child?.pid && child.exitCode === null) {
    const exited = new Promise((resolve) => child!.once("exit", resolve));
    process.kill(-child.pid, "SIGTERM");
    await exited;
  }
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe("the production image's steps (built tree, production dependencies only)", () => {
  // scripts/test-on-node24.sh runs this file on the image's runtime (node:24) and says so here.
  it("runs on the Node.js the run asked for (EXPECT_NODE_MAJOR)", () => {
    const major = process.env.EXPECT_NODE_MAJOR;
    const version = run("node", ["--version"]).trim();
    if (major) expect(version).toMatch(new RegExp(`^v${major}\\.`));
    expect(process.version).toBe(version);
  });

  it("has no development dependency left to lean on", () => {
    for (const dev of ["typescript", "tsx", "jest", "playwright-core", "esbuild", "smee-client"])
      expect(existsSync(join(dir, "node_modules", dev))).toBe(false);
    expect(existsSync(join(dir, "node_modules", "fastify"))).toBe(true);
  });

  it("serves /healthz, the API, the try-it page, Swagger UI and metrics", async () => {
    const health = await fetch(`${base}/healthz`);
    expect(health.status).toBe(200);
    const version = (JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as { version: string })
      .version;
    expect(await health.json()).toEqual({ status: "ok", version, scorer: "offline", app: false });

    const scored = await fetch(`${base}/score-task`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ task: "Add CSV export" }),
    });
    expect(scored.status).toBe(200);
    ScoreReportSchema.parse(await scored.json());

    for (const path of [
      "/",
      "/assets/try-it.js",
      "/assets/try-it.css",
      "/docs/static/index.html",
      "/metrics",
    ])
      expect([path, (await fetch(`${base}${path}`)).status]).toEqual([path, 200]);
  });

  it("with a database, creates it from the shipped migrations (admin CLI in the built tree)", async () => {
    const admin = spawnSync(process.execPath, ["build/src/admin-cli.js", "accounts", "list"], {
      cwd: dir,
      env: { PATH: process.env.PATH, DATA_DIR: join(dir, "keys-data") },
      encoding: "utf8",
    });
    expect([admin.status, admin.stderr]).toEqual([0, ""]);
    expect(existsSync(join(dir, "keys-data", "PG_VERSION"))).toBe(true);
  }, 60_000);

  it("loads .env at start; variables already set win", () => {
    expect(output).toContain("loaded .env");
    expect(output).toMatch(/"policy":\{"minAverage":2,/);
  });

  it("runs the CLI from the built tree", () => {
    const pkg = JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as {
      bin: Record<string, string>;
    };
    const bin = join(dir, pkg.bin["task-scorer"]!);
    expect(readFileSync(bin, "utf8").startsWith("#!/usr/bin/env node\n")).toBe(true);
    const out = execFileSync(process.execPath, [bin, "score", "--title", "Add CSV export", "--json"], {
      cwd: dir,
      env: { PATH: process.env.PATH },
      encoding: "utf8",
    });
    expect(ScoreReportSchema.parse(JSON.parse(out)).task).toBe("Add CSV export");
  });

  it("runs as `npx task-scorer` from the built tree", () => {
    // npx links this package into its cache to run its bin: a cache of the test's own, and offline.
    const out = execFileSync(
      "npx",
      ["--offline", "task-scorer", "score", "--title", "Add CSV export", "--json"],
      {
        cwd: dir,
        env: { PATH: process.env.PATH, npm_config_cache: join(dir, ".npm-cache") },
        encoding: "utf8",
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    expect(ScoreReportSchema.parse(JSON.parse(out)).task).toBe("Add CSV export");
  });
});

describe("registering the App from a production install", () => {
  it("finds Probot's manifest support among the production dependencies", () => {
    const out = execFileSync(
      process.execPath,
      [
        "--input-type=module",
        "-e",
        `const m = await import("./build/src/app/manifest-registration.js");
         await m.registrationPlugin({ envFile: "unused.env", webhookPath: "/x", logger: { info() {}, warn() {} } });
         console.log("loaded");`,
      ],
      { cwd: dir, encoding: "utf8" },
    );
    expect(out.trim()).toBe("loaded");
  });
});

describe("Dockerfile", () => {
  const dockerfile = readFileSync(join(root, "Dockerfile"), "utf8");

  it("is multi-stage, runs as a non-root user, has a health check and only production dependencies", () => {
    expect(dockerfile.match(/^FROM /gm)).toHaveLength(2);
    expect(dockerfile).toMatch(/^USER node$/m);
    expect(dockerfile).toMatch(/^HEALTHCHECK .*\n.*\/healthz/m);
    expect(dockerfile).toContain("npm prune --omit=dev");
    expect(dockerfile).toMatch(/^CMD \["node", "--max-old-space-size=256", "build\/src\/main\.js"\]$/m);
  });

  it("copies only files that exist, and .dockerignore keeps secrets and local installs out", () => {
    for (const [, sources] of dockerfile.matchAll(/^COPY (?!--from)(.+) \S+$/gm))
      for (const source of sources!.split(" "))
        expect([source, existsSync(join(root, source))]).toEqual([source, true]);
    const ignore = readFileSync(join(root, ".dockerignore"), "utf8").split("\n");
    for (const entry of ["node_modules", ".env", "*.pem", "build"]) expect(ignore).toContain(entry);
  });
});
