import { existsSync, mkdirSync, mkdtempSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { describe, expect, it } from "@jest/globals";
import { sql } from "kysely";
import { openDatabase } from "../../src/storage/database.js";
import { extractTar, SEED_INFO, unpackSeed } from "../../src/storage/pglite-seed.js";

const assets = join(dirname(new URL(import.meta.url).pathname), "../../assets");

describe("the embedded database's shipped seed", () => {
  it("was made by the installed PGlite (run `npm run seed` after upgrading it)", () => {
    const require = createRequire(import.meta.url);
    const pkg = join(dirname(require.resolve("@electric-sql/pglite")), "../package.json");
    const installed = (JSON.parse(readFileSync(pkg, "utf8")) as { version: string }).version;
    expect(JSON.parse(readFileSync(join(assets, SEED_INFO), "utf8"))).toEqual({ pglite: installed });
  });

  it("a new data folder starts from the seed, runs every migration, and keeps its rows on reopening", async () => {
    const dir = join(mkdtempSync(join(tmpdir(), "ts-seed-")), "data");
    const first = await openDatabase({ dataDir: dir });
    expect(existsSync(join(dir, "PG_VERSION"))).toBe(true);
    await first.db.insertInto("accounts").values({ id: "acct_seed", name: "Seed", plan: "free" }).execute();
    const tables = await sql<{ n: number }>`select count(*)::int as n from information_schema.tables
      where table_name in ('accounts', 'usage_ledger', 'rate_limits')`.execute(first.db);
    expect(tables.rows[0]!.n).toBe(3);
    await first.close();
    // A folder that holds a database is never unpacked over.
    expect(unpackSeed(dir, assets, "0.5.14")).toBe(false);
    const again = await openDatabase({ dataDir: dir });
    const rows = await again.db.selectFrom("accounts").select("id").execute();
    expect(rows).toEqual([{ id: "acct_seed" }]);
    await again.close();
  });

  it("a seed made by another PGlite is not used", () => {
    const dir = join(mkdtempSync(join(tmpdir(), "ts-seed-")), "data");
    expect(unpackSeed(dir, assets, "0.0.1")).toBe(false);
    expect(existsSync(join(dir, "PG_VERSION"))).toBe(false);
  });

  it("refuses an archive entry that would land outside the folder", () => {
    const header = Buffer.alloc(512);
    header.write("../escape.txt", 0);
    header.write("0000644\0", 100);
    header.write("00000000004\0", 124);
    header.write("0", 156);
    const tar = Buffer.concat([header, Buffer.from("evil".padEnd(512, "\0")), Buffer.alloc(1024)]);
    const into = mkdtempSync(join(tmpdir(), "ts-tar-"));
    mkdirSync(join(into, "inside"));
    expect(() => extractTar(tar, join(into, "inside"))).toThrow(/outside the folder/);
    expect(existsSync(join(into, "escape.txt"))).toBe(false);
  });
});
