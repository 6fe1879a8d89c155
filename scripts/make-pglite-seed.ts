/**
 * `npm run seed`: make the pre-initialised PGlite data folder shipped in assets/ (see src/storage/pglite-seed.ts).
 * Run it after upgrading @electric-sql/pglite; a test checks that the shipped seed matches the installed PGlite.
 * This process runs PGlite's initdb once (it peaks near 900 MB), so that no server ever has to.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { PGlite } from "@electric-sql/pglite";
import { SEED_ARCHIVE, SEED_INFO, type SeedInfo } from "../src/storage/pglite-seed.js";

const assets = resolve(dirname(fileURLToPath(import.meta.url)), "../assets");
const require = createRequire(import.meta.url);
const pkgPath = join(dirname(require.resolve("@electric-sql/pglite")), "../package.json");
const version = (JSON.parse(readFileSync(pkgPath, "utf8")) as { version: string }).version;

const pg = new PGlite();
await pg.waitReady;
await pg.exec("CHECKPOINT");
const archive = Buffer.from(await (await pg.dumpDataDir("gzip")).arrayBuffer());
await pg.close();
writeFileSync(join(assets, SEED_ARCHIVE), archive);
const info: SeedInfo = { pglite: version };
writeFileSync(join(assets, SEED_INFO), `${JSON.stringify(info, null, 2)}\n`);
console.log(
  `seed: ${(archive.length / 1048576).toFixed(1)} MB for PGlite ${version} -> assets/${SEED_ARCHIVE}`,
);
