import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseEnv } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { updateEnvFile } from "../../src/config/write-env-file.js";

/** Registration writes the App's credentials into the developer's .env: everything else must survive. */
let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "task-scorer-envfile-"));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("updateEnvFile", () => {
  it("replaces the keys it sets (also `export`ed or repeated ones) and keeps every other line", () => {
    const file = join(dir, "a.env");
    writeFileSync(file, "# keep me\nexport APP_ID=1\nOTHER='x y'\nAPP_ID=2\n\nLAST=z");
    updateEnvFile(file, { APP_ID: "42", WEBHOOK_SECRET: "s" });
    expect(readFileSync(file, "utf8")).toBe(
      "# keep me\nAPP_ID=42\nOTHER='x y'\n\nLAST=z\nWEBHOOK_SECRET=s\n",
    );
  });

  it("creates the file readable by its owner only, with a multi-line key Node reads back", () => {
    const file = join(dir, "new.env");
    const pem = "-----BEGIN RSA PRIVATE KEY-----\nabc\n-----END RSA PRIVATE KEY-----\n";
    updateEnvFile(file, { PRIVATE_KEY: `"${pem}"` });
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readFileSync(file, "utf8").split("\n")).toHaveLength(2);
    expect(parseEnv(readFileSync(file, "utf8")).PRIVATE_KEY).toBe(pem);
  });
});
