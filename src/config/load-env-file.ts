import { resolve } from "node:path";
import { ConfigError } from "../core/errors.js";

/** Where `.env` is read from and where the App's registration writes its credentials. */
export function envFilePath(): string {
  return resolve(process.cwd(), ".env");
}

/**
 * Load `.env` into process.env, as Probot users expect. Variables already set win (as with
 * `node --env-file`), so a deployment's real environment is never overridden by a stray file.
 * Node's own parser: no dependency, and the same syntax Probot writes.
 */
export function loadEnvFile(path = envFilePath()): boolean {
  try {
    process.loadEnvFile(path);
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return false;
    throw new ConfigError(`${path} could not be read: ${(err as Error).message}`);
  }
}
