import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

/**
 * The package's own folder, found from this file: src/config/ under tsx and jest, build/src/config/
 * once compiled. The web page, app.yml and package.json are read from there, not from the working
 * directory, so `npx task-scorer` and a container both find them wherever they are started.
 */
export function packageRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 5; i++) {
    if (existsSync(join(dir, "package.json"))) return dir;
    dir = dirname(dir);
  }
  return process.cwd();
}

export function packageVersion(): string {
  try {
    return (JSON.parse(readFileSync(join(packageRoot(), "package.json"), "utf8")) as { version: string })
      .version;
  } catch {
    return "0.0.0";
  }
}
