import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { hostname, tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "@jest/globals";
import { sql } from "kysely";
import { composeService } from "../../src/compose-service.js";
import { createLogger } from "../../src/config/create-logger.js";
import { openDatabase } from "../../src/storage/database.js";
import { migrate } from "../../src/storage/migrator.js";
import { loadServiceConfig } from "../../src/config/service-config.js";
import { builtFile } from "../helpers/server-build.js";

describe("the embedded database (PGlite)", () => {
  it("applies each migration once: a second run applies nothing", async () => {
    const d = await openDatabase({ dataDir: "memory://" });
    expect(await migrate(d.db)).toEqual([]);
    const tables = await sql<{
      tablename: string;
    }>`SELECT tablename FROM pg_tables WHERE schemaname = 'public' ORDER BY 1`.execute(d.db);
    expect(tables.rows.map((r) => r.tablename)).toEqual(
      expect.arrayContaining([
        "accounts",
        "api_keys",
        "usage_ledger",
        "usage_counters",
        "reports",
        "webhook_deliveries",
      ]),
    );
    await d.close();
  });

  it("keeps its data in the folder across a restart", async () => {
    const dir = mkdtempSync(join(tmpdir(), "ts-pglite-"));
    const first = await openDatabase({ dataDir: dir });
    await first.db
      .insertInto("accounts")
      .values({ id: "acct_1", name: "Kept", plan: "pro", github_login: null })
      .execute();
    await first.close();
    const second = await openDatabase({ dataDir: dir });
    const row = await second.db
      .selectFrom("accounts")
      .select("name")
      .where("id", "=", "acct_1")
      .executeTakeFirst();
    await second.close();
    expect(row?.name).toBe("Kept");
  }, 30_000);

  it("refuses a folder another live process holds, naming that process", async () => {
    const dir = mkdtempSync(join(tmpdir(), "ts-pglite-"));
    const child = spawn(process.execPath, [builtFile("test/storage/hold-data-dir.ts"), dir], {
      stdio: ["ignore", "pipe", "inherit"],
    });
    try {
      await new Promise<void>((ok, fail) => {
        child.stdout.on("data", (b: Buffer) => b.toString().includes("holding") && ok());
        child.once("exit", (code) => fail(new Error(`holder exited with ${code}`)));
      });
      await expect(openDatabase({ dataDir: dir })).rejects.toThrow(
        new RegExp(`in use by another task-scorer process \\(pid ${child.pid}\\)`),
      );
      expect(readFileSync(join(dir, ".task-scorer.lock"), "utf8")).toBe(`${hostname()} ${child.pid}`);
    } finally {
      child.kill("SIGKILL");
      await new Promise((r) => child.once("exit", r));
    }
    // A lock left by a process that died is taken over; one from another host (a container on a shared
    // volume) cannot be checked, so it is respected.
    writeFileSync(join(dir, ".task-scorer.lock"), `another-host 1`);
    await expect(openDatabase({ dataDir: dir })).rejects.toThrow(/pid 1 on another-host/);
    writeFileSync(join(dir, ".task-scorer.lock"), `${hostname()} ${child.pid}`);
    const after = await openDatabase({ dataDir: dir });
    await after.close();
  }, 60_000);

  it("the open default opens no database and writes no data folder", async () => {
    const cwd = process.cwd();
    const dir = mkdtempSync(join(tmpdir(), "ts-open-"));
    process.chdir(dir);
    try {
      const service = await composeService(loadServiceConfig({}), { logger: createLogger("silent") });
      await service.close();
      expect(existsSync(join(dir, "data"))).toBe(false);
    } finally {
      process.chdir(cwd);
    }
  });
});
