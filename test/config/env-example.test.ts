import { describe, expect, it } from "@jest/globals";
import { readdirSync, readFileSync } from "node:fs";

/** Every variable the env schemas read is listed in .env.example (BACKLOG_REQUESTS_PER_MINUTE once was not). */
describe(".env.example", () => {
  it("lists every variable the server's env schemas read", () => {
    const dir = new URL("../../src/config/", import.meta.url);
    const names = new Set<string>();
    for (const f of readdirSync(dir).filter((f) => f.endsWith("-env.schema.ts")))
      for (const m of readFileSync(new URL(f, dir), "utf8").matchAll(/^\s+([A-Z][A-Z0-9_]{2,}):/gm))
        names.add(m[1]!);
    expect(names.size).toBeGreaterThan(20);
    const example = readFileSync(new URL("../../.env.example", import.meta.url), "utf8");
    const listed = new Set([...example.matchAll(/^#?\s*([A-Z][A-Z0-9_]{2,})=/gm)].map((m) => m[1]!));
    expect([...names].filter((n) => !listed.has(n)).sort()).toEqual([]);
  });
});
