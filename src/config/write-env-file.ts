import { chmodSync, readFileSync, writeFileSync } from "node:fs";

const LINE_KEY = /^\s*(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)\s*=/;

/**
 * Set some variables in an env file and leave every other line (other variables, comments, blank
 * lines) as it was. Multi-line values are written with "\n", as Probot writes them; Node's env
 * parser turns them back into newlines inside double quotes. Created readable by its owner only:
 * it holds the App's private key.
 */
export function updateEnvFile(path: string, values: Readonly<Record<string, string>>): void {
  let existing = "";
  try {
    existing = readFileSync(path, "utf8");
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "ENOENT") throw err;
  }
  const pending = new Map(Object.entries(values));
  const format = (key: string, value: string) => `${key}=${value.replace(/\r?\n/g, "\\n")}`;
  const lines = existing === "" ? [] : existing.replace(/\n$/, "").split("\n");
  const out: string[] = [];
  const written = new Set<string>();
  for (const line of lines) {
    const key = line.match(LINE_KEY)?.[1];
    if (key === undefined || !pending.has(key)) {
      out.push(line);
    } else if (!written.has(key)) {
      out.push(format(key, pending.get(key)!));
      written.add(key);
    }
    // a second line for a key being set is dropped: it would override the new value
  }
  for (const [key, value] of pending) if (!written.has(key)) out.push(format(key, value));
  writeFileSync(path, `${out.join("\n")}\n`, { mode: 0o600 });
  // An existing file keeps its mode on write; it now holds a private key.
  chmodSync(path, 0o600);
}
