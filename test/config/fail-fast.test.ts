import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Writable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import pino from "pino";
import { appSettingsFromEnv } from "../../src/config/app-env.schema.js";
import { appWithStandIn, PRIVATE_KEY, WEBHOOK_SECRET } from "../helpers/app-harness.js";
import { builtCommand, testBuildDir } from "../helpers/server-build.js";

/** Mistakes in the App's settings stop the start with a message saying what to write instead. */
const app = (env: Record<string, string>) =>
  appSettingsFromEnv({ APP_ID: "1", PRIVATE_KEY, WEBHOOK_SECRET, ...env });

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "task-scorer-failfast-"));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("GHE_HOST", () => {
  it("refuses a scheme or a path, showing the right form", () => {
    expect(() => app({ GHE_HOST: "http://ghe.example.com" })).toThrow(
      "GHE_HOST: must be a host name only, without a scheme or path: use GHE_HOST=ghe.example.com GHE_PROTOCOL=http",
    );
    expect(() => app({ GHE_HOST: "https://ghe.example.com:8443/api/v3" })).toThrow(
      /use GHE_HOST=ghe\.example\.com:8443\.$/,
    );
    expect(() => app({ GHE_HOST: "ghe.example.com/api/v3" })).toThrow(/use GHE_HOST=ghe\.example\.com\b/);
  });

  it("accepts a host, with a port", () => {
    expect(app({ GHE_HOST: "ghe.example.com:8443" })?.baseUrl).toBe("https://ghe.example.com:8443/api/v3");
  });
});

describe("the App's private key", () => {
  it("is parsed at start: garbage stops it, naming the variable", () => {
    expect(() => app({ PRIVATE_KEY: "not a key" })).toThrow(/^PRIVATE_KEY is not a valid private key/);
    const file = join(dir, "bad.pem");
    writeFileSync(file, "-----BEGIN RSA PRIVATE KEY-----\nAAAA\n-----END RSA PRIVATE KEY-----\n");
    expect(() => appSettingsFromEnv({ APP_ID: "1", PRIVATE_KEY_PATH: file, WEBHOOK_SECRET })).toThrow(
      /^PRIVATE_KEY_PATH is not a valid private key/,
    );
  });

  it("is accepted as PEM text, with literal \\n, or as base64 (Probot's forms)", () => {
    expect(app({ PRIVATE_KEY: PRIVATE_KEY.replace(/\n/g, "\\n") })?.privateKey).toBe(PRIVATE_KEY);
    expect(app({ PRIVATE_KEY: Buffer.from(PRIVATE_KEY).toString("base64") })?.privateKey).toBe(PRIVATE_KEY);
  });

  it("stops `npm start` with exit code 1 and a message, never echoing the value", () => {
    const run = spawnSync(...builtCommand("src/main.ts"), {
      cwd: new URL("../..", import.meta.url).pathname,
      env: {
        PATH: process.env.PATH,
        PORT: "0",
        APP_ID: "1",
        PRIVATE_KEY: "s3cret-garbage",
        WEBHOOK_SECRET: "w",
      },
      encoding: "utf8",
    });
    expect(run.status).toBe(1);
    expect(run.stdout + run.stderr).toContain("PRIVATE_KEY is not a valid private key");
    expect(run.stdout + run.stderr).not.toContain("s3cret-garbage");
  });
});

describe("APP_STARTUP_CHECK", () => {
  // One stand-in for the block, kept as the tests leave it (each test sets up the faults it needs).
  const app = appWithStandIn({ keepGitHub: true });
  const { github } = app;

  async function startWithCheck(): Promise<string[]> {
    const messages: string[] = [];
    const sink = new Writable({
      write(chunk, _enc, done) {
        messages.push(String(JSON.parse(String(chunk)).msg));
        done();
      },
    });
    const service = await app.start(
      { LOG_LEVEL: "info", APP_STARTUP_CHECK: "true" },
      undefined,
      pino({ level: "info" }, sink),
    );
    await service.close();
    return messages;
  }

  it("logs the App's name from GET /app", async () => {
    github.faults.push({
      method: "GET",
      path: /^\/app$/,
      status: 200,
      body: { name: "Task Scorer (test)", slug: "ts" },
    });
    expect(await startWithCheck()).toContain('GitHub App check: authenticated as "Task Scorer (test)"');
    expect(github.requests.find((r) => r.path === "/app")?.authorization).toMatch(/^bearer /i);
  });

  it("logs a clear reason when GitHub refuses the credentials", async () => {
    github.faults.push({ method: "GET", path: /^\/app$/, status: 401, body: { message: "Bad credentials" } });
    expect(await startWithCheck()).toContainEqual(
      expect.stringContaining("GitHub App check failed: GitHub refused the App's token (401)"),
    );
  });
});

describe(".env", () => {
  it("is loaded into the environment at start, and variables already set win", () => {
    const file = join(dir, "test.env");
    writeFileSync(file, "# comment\nFROM_FILE=file\nALREADY_SET=file\n");
    // In a process of its own: jest's process.env is not the real one.
    const run = spawnSync(
      process.execPath,
      [
        "--input-type=module",
        "-e",
        `const { loadEnvFile } = await import("./src/config/load-env-file.js");
         const found = loadEnvFile(${JSON.stringify(file)});
         const absent = loadEnvFile(${JSON.stringify(join(dir, "absent.env"))});
         console.log(JSON.stringify({ found, absent, FROM_FILE: process.env.FROM_FILE, ALREADY_SET: process.env.ALREADY_SET }));`,
      ],
      {
        // The test build, where ./src/… is compiled (the script imports it).
        cwd: testBuildDir(),
        env: { PATH: process.env.PATH, ALREADY_SET: "process" },
        encoding: "utf8",
      },
    );
    expect(JSON.parse(run.stdout)).toEqual({
      found: true,
      absent: false,
      FROM_FILE: "file",
      ALREADY_SET: "process",
    });
  });
});
