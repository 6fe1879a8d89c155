import { spawnSync } from "node:child_process";
import { describe, expect, it } from "@jest/globals";
import { appSettingsFromEnv } from "../../src/config/app-env.schema.js";
import { loadServiceConfig, needsDatabase } from "../../src/config/service-config.js";
import { PRIVATE_KEY } from "../helpers/app-harness.js";
import { builtCommand } from "../helpers/server-build.js";

describe("the service configuration, read once from the environment", () => {
  it("has working defaults with nothing set (npm start needs no configuration)", () => {
    const config = loadServiceConfig({});
    expect(config.server).toMatchObject({
      port: 3000,
      host: "0.0.0.0",
      logLevel: "info",
      requestTimeoutMs: 30_000,
    });
    expect(config.llm.scorer).toBe("auto");
    expect(config.approval).toEqual({ minAverage: 7, minScore: 4, minSupporters: 3, supportScore: 7 });
    expect(config.app.credentials).toBeUndefined();
    expect(config.app).toMatchObject({ registration: "auto", githubThrottle: true, startupCheck: false });
    expect(config.keys).toEqual({ auth: "open", maxConcurrentPerKey: 4 });
    expect(config.storage).toMatchObject({ databaseUrl: undefined, dataDir: "data" });
    expect(config.fleet).toMatchObject({
      redisUrl: undefined,
      jobsPerSecond: 2,
      lockMs: 30_000,
      attempts: 5,
    });
    expect(needsDatabase(config)).toBe(false);
  });

  it("puts each variable in the section it belongs to", () => {
    const config = loadServiceConfig({
      GITHUB_THROTTLE: "off",
      AUTH: "keys",
      KEY_MAX_CONCURRENT: "9",
      DATABASE_URL: "postgres://db/x",
      REDIS_URL: "redis://r:6379",
      FLEET_LOCK_SECONDS: "12",
      PUBLIC_URL: "https://scorer.example.com/",
      REGISTRATION: "off",
    });
    expect(config.app.githubThrottle).toBe(false);
    expect(config.app.registration).toBe("off");
    expect(config.keys).toEqual({ auth: "keys", maxConcurrentPerKey: 9 });
    expect(config.storage.databaseUrl).toBe("postgres://db/x");
    expect(config.fleet).toMatchObject({ redisUrl: "redis://r:6379", lockMs: 12_000 });
    expect(config.server.publicUrl).toBe("https://scorer.example.com");
    expect(needsDatabase(config)).toBe(true);
  });

  it("reads the approval thresholds", () => {
    const config = loadServiceConfig({ APPROVAL_MIN_AVERAGE: "6.5", APPROVAL_MIN_SUPPORTERS: "2" });
    expect(config.approval).toMatchObject({ minAverage: 6.5, minSupporters: 2 });
  });

  it.each([
    [{ PORT: "abc" }, /PORT/],
    [{ SCORER: "gpt" }, /SCORER/],
    [{ APPROVAL_MIN_AVERAGE: "high" }, /APPROVAL_MIN_AVERAGE/],
    [{ APPROVAL_MIN_SUPPORTERS: "9" }, /APPROVAL_MIN_SUPPORTERS/],
    [{ FLEET_ATTEMPTS: "0" }, /FLEET_ATTEMPTS/],
    [{ AUTH: "password" }, /AUTH/],
    [{ GITHUB_THROTTLE: "maybe" }, /GITHUB_THROTTLE/],
  ])("names the variable when %p is invalid", (vars, name) => {
    expect(() => loadServiceConfig(vars)).toThrow(name);
  });

  it("refuses settings that contradict each other across sections", () => {
    expect(() => loadServiceConfig({ REDIS_URL: "redis://r:6379" })).toThrow(/DATABASE_URL/);
    expect(() => loadServiceConfig({ REGISTRATION: "on", HOST: "0.0.0.0" })).toThrow(/PUBLIC_URL/);
    expect(loadServiceConfig({ REGISTRATION: "on", HOST: "127.0.0.1" }).app.registration).toBe("on");
  });

  it("refuses half-configured App credentials, naming what is missing", () => {
    expect(() => appSettingsFromEnv({ APP_ID: "1", WEBHOOK_SECRET: "s" })).toThrow(/PRIVATE_KEY/);
    expect(() => appSettingsFromEnv({ APP_ID: "x", PRIVATE_KEY: "k", WEBHOOK_SECRET: "s" })).toThrow(
      /APP_ID/,
    );
  });

  it("builds the GitHub Enterprise API address and unescapes one-line keys", () => {
    const s = appSettingsFromEnv({
      APP_ID: "1",
      PRIVATE_KEY: PRIVATE_KEY.replace(/\n/g, "\\n"),
      WEBHOOK_SECRET: "s",
      GHE_HOST: "ghe.example.com",
    });
    expect(s?.baseUrl).toBe("https://ghe.example.com/api/v3");
    expect(s?.privateKey).toBe(PRIVATE_KEY);
  });

  it("gives App jobs a 60 s time limit by default, configurable, and refuses nonsense", () => {
    const base = { APP_ID: "1", PRIVATE_KEY, WEBHOOK_SECRET: "s" };
    expect(appSettingsFromEnv(base)?.jobTimeoutMs).toBe(60_000);
    expect(appSettingsFromEnv({ ...base, APP_JOB_TIMEOUT_SECONDS: "150" })?.jobTimeoutMs).toBe(150_000);
    expect(() => appSettingsFromEnv({ ...base, APP_JOB_TIMEOUT_SECONDS: "0" })).toThrow(
      /APP_JOB_TIMEOUT_SECONDS/,
    );
  });

  it("stops the server at start with a message naming a bad variable, and exit code 1", () => {
    const run = spawnSync(...builtCommand("src/main.ts"), {
      cwd: new URL("../..", import.meta.url).pathname,
      env: { PATH: process.env.PATH, PORT: "not-a-port" },
      encoding: "utf8",
      timeout: 20_000,
    });
    expect(run.status).toBe(1);
    expect(run.stdout + run.stderr).toMatch(/Invalid environment: PORT/);
  });
});
