import { spawnSync } from "node:child_process";
import { describe, expect, it } from "@jest/globals";
import { appSettingsFromEnv } from "../../src/config/app-env.schema.js";
import { approvalPolicyFromEnv, parseServerEnv } from "../../src/config/env.schema.js";
import { PRIVATE_KEY } from "../app/app-harness.js";

describe("server environment", () => {
  it("has working defaults with nothing set (npm start needs no configuration)", () => {
    const env = parseServerEnv({});
    expect(env).toMatchObject({ PORT: 3000, HOST: "0.0.0.0", SCORER: "auto", LOG_LEVEL: "info" });
    expect(approvalPolicyFromEnv(env)).toEqual({
      minAverage: 7,
      minScore: 4,
      minSupporters: 3,
      supportScore: 7,
    });
    expect(appSettingsFromEnv({})).toBeUndefined();
  });

  it("reads the approval thresholds", () => {
    const env = parseServerEnv({ APPROVAL_MIN_AVERAGE: "6.5", APPROVAL_MIN_SUPPORTERS: "2" });
    expect(approvalPolicyFromEnv(env)).toMatchObject({ minAverage: 6.5, minSupporters: 2 });
  });

  it.each([
    [{ PORT: "abc" }, /PORT/],
    [{ SCORER: "gpt" }, /SCORER/],
    [{ APPROVAL_MIN_AVERAGE: "high" }, /APPROVAL_MIN_AVERAGE/],
  ])("names the variable when %p is invalid", (vars, name) => {
    expect(() => approvalPolicyFromEnv(parseServerEnv(vars))).toThrow(name);
  });

  it("names an out-of-range threshold", () => {
    expect(() => approvalPolicyFromEnv(parseServerEnv({ APPROVAL_MIN_SUPPORTERS: "9" }))).toThrow(
      /APPROVAL_MIN_SUPPORTERS/,
    );
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
    const run = spawnSync(process.execPath, ["--import", "tsx", "src/main.ts"], {
      cwd: new URL("../..", import.meta.url).pathname,
      env: { PATH: process.env.PATH, PORT: "not-a-port" },
      encoding: "utf8",
      timeout: 20_000,
    });
    expect(run.status).toBe(1);
    expect(run.stdout + run.stderr).toMatch(/Invalid environment: PORT/);
  });
});
