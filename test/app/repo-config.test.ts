import { readFileSync } from "node:fs";
import { describe, expect, it } from "@jest/globals";
import { parseRepoConfig, repoApprovalPolicy } from "../../src/app/repo-config.schema.js";
import { DEFAULT_APPROVAL_POLICY } from "../../src/core/approval.js";
import { renderSchemas } from "../../scripts/render-schemas.js";

describe(".github/task-scorer.yml", () => {
  it("uses the defaults when there is no file", () => {
    const { config, notes } = parseRepoConfig(null);
    expect(notes).toEqual([]);
    expect(config.enabled).toBe(true);
    expect(config.drafts).toBe("skip");
    expect(config.triggers.issues).toEqual(["opened", "reopened", "edited"]);
    expect(repoApprovalPolicy(config, DEFAULT_APPROVAL_POLICY)).toEqual(DEFAULT_APPROVAL_POLICY);
  });

  it("keeps valid keys, ignores invalid ones with a reason, and never throws", () => {
    const { config, notes } = parseRepoConfig({
      drafts: "score",
      approval: { "min-average": 6, "min-supporters": 9 },
      labels: { approved: "ok" },
      "skip-title-patterns": ["(unclosed"],
      unknown: 1,
      _extends: ".github",
    });
    expect(config.drafts).toBe("score");
    expect(config.labels).toEqual({ approved: "ok" });
    expect(config["skip-title-patterns"]).toEqual([]);
    expect(repoApprovalPolicy(config, DEFAULT_APPROVAL_POLICY).minAverage).toBe(7);
    expect(notes).toHaveLength(3);
    expect(notes.join("\n")).toMatch(/`approval` ignored \(min-supporters: Too big/);
    expect(notes.join("\n")).toMatch(/`skip-title-patterns` ignored \(0: is not a valid regular expression/);
    expect(notes.join("\n")).toMatch(/unknown key `unknown`/);
  });

  it("merges repository thresholds over the server's", () => {
    const { config } = parseRepoConfig({ approval: { "min-average": 6, "support-score": 8 } });
    expect(repoApprovalPolicy(config, { ...DEFAULT_APPROVAL_POLICY, minScore: 2 })).toEqual({
      minAverage: 6,
      minScore: 2,
      minSupporters: 3,
      supportScore: 8,
    });
  });

  it("rejects a file that is not a mapping, with a note", () => {
    expect(parseRepoConfig("just a string").notes[0]).toMatch(/not a mapping/);
  });

  it("publishes JSON Schema and OpenAPI generated from the zod schemas (run `npm run schemas` after a change)", async () => {
    for (const [path, text] of Object.entries(await renderSchemas())) {
      expect(readFileSync(new URL(`../../${path}`, import.meta.url), "utf8")).toBe(text);
    }
  });
});
