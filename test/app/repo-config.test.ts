import { readFileSync } from "node:fs";
import { describe, expect, it } from "@jest/globals";
import { parseRepoConfig, repoApprovalPolicy } from "../../src/repo-config/repo-config.schema.js";
import { compileTitlePattern } from "../../src/repo-config/title-pattern.js";
import { DEFAULT_APPROVAL_POLICY } from "../../src/core/approval.js";
import { renderSchemas } from "../../scripts/render-schemas.js";

describe(".github/task-scorer.yml", () => {
  it("uses the defaults when there is no file", () => {
    const { config, diagnostics, failedClosed } = parseRepoConfig(null);
    expect(diagnostics).toEqual([]);
    expect(failedClosed).toBe(false);
    expect(config.enabled).toBe(true);
    expect(config.drafts).toBe("skip");
    expect(config.trigger).toBe("always");
    expect(config["comment-style"]).toBe("compact");
    expect(config.triggers.issues).toEqual(["opened", "reopened", "edited"]);
    expect(repoApprovalPolicy(config, DEFAULT_APPROVAL_POLICY)).toEqual(DEFAULT_APPROVAL_POLICY);
  });

  it("keeps valid keys, ignores invalid ones with a reason, and never throws", () => {
    const { config, diagnostics } = parseRepoConfig({
      drafts: "score",
      approval: { "min-average": 6, "min-supporters": 9 },
      labels: { approved: "ok" },
      unknown: 1,
      _extends: ".github",
    });
    expect(config.drafts).toBe("score");
    expect(config.labels).toEqual({ approved: "ok" });
    expect(repoApprovalPolicy(config, DEFAULT_APPROVAL_POLICY).minAverage).toBe(7);
    const text = diagnostics.map((d) => d.message).join("\n");
    expect(diagnostics).toHaveLength(2);
    expect(text).toMatch(/`approval` ignored \(min-supporters: Too big/);
    expect(text).toMatch(/unknown key `unknown`/);
  });

  it.each([
    ["no", false],
    ["No", false],
    ["off", false],
    ["yes", true],
    ["ON", true],
    [false, false],
  ])("reads `enabled: %s` as the boolean %s", (value, expected) => {
    const { config, diagnostics } = parseRepoConfig({ enabled: value, comment: value });
    expect(diagnostics).toEqual([]);
    expect(config.enabled).toBe(expected);
    expect(config.comment).toBe(expected);
  });

  it("fails closed when a disabling key cannot be read", () => {
    const off = parseRepoConfig({ enabled: "nope" });
    expect(off.failedClosed).toBe(true);
    expect(off.config.enabled).toBe(false);
    expect(off.diagnostics[0]!.message).toMatch(/`enabled` could not be read .*the App stays off/);

    const quiet = parseRepoConfig({ comment: "maybe" });
    expect(quiet.config.comment).toBe(false);

    // A broken skip list cannot say what to skip: only `/score` scores, even with `trigger: always`.
    const narrowed = parseRepoConfig({ "skip-title-patterns": ["(unclosed"], trigger: "always" });
    expect(narrowed.config.trigger).toBe("command");
    expect(narrowed.diagnostics[0]!.message).toMatch(
      /skip-title-patterns.*not a valid RE2 regular expression/,
    );
  });

  it("rejects a file that is not a mapping, and stays off", () => {
    const parsed = parseRepoConfig("just a string");
    expect(parsed.diagnostics[0]!.message).toMatch(/not a mapping/);
    expect(parsed.config.enabled).toBe(false);
  });

  it("runs title patterns with RE2 semantics: case-insensitive, linear, no lookarounds", () => {
    expect(compileTitlePattern("^wip\\b").matcher("WIP: draft").find()).toBe(true);
    // The hostile pattern answers at once instead of backtracking for seconds.
    expect(
      compileTitlePattern("^(a+)+$")
        .matcher(`${"a".repeat(40)}b`)
        .find(),
    ).toBe(false);
    expect(parseRepoConfig({ "skip-title-patterns": ["(?=x)"] }).diagnostics).toHaveLength(1);
  });

  it("publishes JSON Schema and OpenAPI generated from the zod schemas (run `npm run schemas` after a change)", async () => {
    for (const [path, text] of Object.entries(await renderSchemas())) {
      expect(readFileSync(new URL(`../../${path}`, import.meta.url), "utf8")).toBe(text);
    }
    // Two servers and an in-memory PGlite with every migration: about 5 s alone, and it went past jest's 20 s
    // once in a CI run on two busy cores (.ci/run runs the Node 24 suites and the smoke runs beside it).
  }, 60_000);
});
