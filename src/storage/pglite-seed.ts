import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, normalize, resolve, sep } from "node:path";
import { gunzipSync } from "node:zlib";
import { packageRoot } from "../config/package-info.js";

/**
 * A pre-initialised PGlite data folder, made once by `npm run seed` (scripts/make-pglite-seed.ts) and shipped in
 * `assets/`. Running initdb inside the server's process is what makes PGlite's first start peak at 800+ MB: its
 * initdb is a second WASM instance with its own memory. Unpacking the same folder instead makes a first start cost
 * what a restart costs. The migrations still run afterwards, exactly as on PostgreSQL.
 */
export interface SeedInfo {
  /** The @electric-sql/pglite version that made the seed: a data folder is tied to PostgreSQL's major version. */
  pglite: string;
}

export const SEED_ARCHIVE = "pglite-seed.tar.gz";
export const SEED_INFO = "pglite-seed.json";

/**
 * Unpack the seed into `dir` when it holds no database yet and the seed was made by the PGlite in use. Returns
 * whether it did; otherwise PGlite runs its own initdb (slower, and far more memory, but always right).
 */
export function unpackSeed(dir: string, assetsDir: string, pgliteVersion: string): boolean {
  if (existsSync(join(dir, "PG_VERSION"))) return false;
  const archive = join(assetsDir, SEED_ARCHIVE);
  const infoPath = join(assetsDir, SEED_INFO);
  if (!existsSync(archive) || !existsSync(infoPath)) return false;
  const info = JSON.parse(readFileSync(infoPath, "utf8")) as SeedInfo;
  if (info.pglite !== pgliteVersion) return false;
  // Unpacked beside the folder and renamed into place, so a process killed halfway leaves no half a database.
  const target = resolve(dir);
  const staging = `${target}.seeding-${process.pid}`;
  rmSync(staging, { recursive: true, force: true });
  mkdirSync(staging, { recursive: true });
  extractTar(gunzipSync(readFileSync(archive)), staging);
  // The folder exists already (it holds the lock file): move the unpacked entries in one by one.
  mkdirSync(target, { recursive: true });
  for (const entry of readdirSync(staging)) renameSync(join(staging, entry), join(target, entry));
  rmSync(staging, { recursive: true, force: true });
  return true;
}

/** A ustar archive of plain files and folders (what PGlite's dumpDataDir writes). */
export function extractTar(tar: Buffer, into: string): void {
  const root = resolve(into);
  for (let offset = 0; offset + 512 <= tar.length;) {
    const header = tar.subarray(offset, offset + 512);
    if (header.every((b) => b === 0)) break;
    const field = (start: number, length: number) =>
      header
        .subarray(start, start + length)
        .toString("utf8")
        .replace(/\0.*$/s, "");
    const name = (field(345, 155) ? `${field(345, 155)}/` : "") + field(0, 100);
    const size = parseInt(field(124, 12).trim() || "0", 8);
    const type = field(156, 1) || "0";
    const path = resolve(root, `.${sep}${normalize(name).replace(/^[/\\]+/, "")}`);
    if (path !== root && !path.startsWith(root + sep))
      throw new Error(`seed archive entry outside the folder: ${name}`);
    const body = offset + 512;
    if (type === "5") mkdirSync(path, { recursive: true });
    else if (type === "0") {
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(path, tar.subarray(body, body + size), { mode: 0o600 });
    } else throw new Error(`seed archive entry of an unexpected type ${type}: ${name}`);
    offset = body + Math.ceil(size / 512) * 512;
  }
}

/**
 * PostgreSQL's settings for the embedded engine. Its default shared_buffers (128 MB) is sized for a server of
 * its own; inside this process it was most of a restart's memory (365 MB peak against 223 MB measured with
 * 8 MB), for a database that holds a few thousand rows.
 */
export const PGLITE_SETTINGS = "shared_buffers=8MB";

function installedPgliteVersion(): string {
  const require = createRequire(import.meta.url);
  const main = require.resolve("@electric-sql/pglite");
  return (JSON.parse(readFileSync(join(dirname(main), "../package.json"), "utf8")) as { version: string })
    .version;
}

/**
 * PGlite's constructor options for a data folder (or memory when `dir` is undefined): the shipped seed instead
 * of initdb wherever it fits this PGlite, and the lean settings always.
 */
export function pgliteOptions(dir: string | undefined): { postgresqlconf: string; loadDataDir?: Blob } {
  const assets = join(packageRoot(), "assets");
  const version = installedPgliteVersion();
  if (dir !== undefined) {
    unpackSeed(dir, assets, version);
    return { postgresqlconf: PGLITE_SETTINGS };
  }
  // In memory there is no folder to unpack into: PGlite loads the archive itself.
  const info = join(assets, SEED_INFO);
  const fits = existsSync(info) && (JSON.parse(readFileSync(info, "utf8")) as SeedInfo).pglite === version;
  return fits
    ? { postgresqlconf: PGLITE_SETTINGS, loadDataDir: new Blob([readFileSync(join(assets, SEED_ARCHIVE))]) }
    : { postgresqlconf: PGLITE_SETTINGS };
}
