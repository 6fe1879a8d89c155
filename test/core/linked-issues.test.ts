import { describe, expect, it } from "@jest/globals";
import { issueName, linkedIssues, MAX_LINKED_ISSUES } from "../../src/core/change/linked-issues.js";

const names = (text: string) => linkedIssues(text).map(issueName);

describe("linkedIssues (GitHub's closing keywords)", () => {
  it("reads every keyword, in any case, with or without a colon", () => {
    for (const keyword of [
      "close",
      "closes",
      "closed",
      "fix",
      "fixes",
      "fixed",
      "resolve",
      "resolves",
      "resolved",
    ])
      expect(names(`${keyword.toUpperCase()} #12`)).toEqual(["#12"]);
    expect(names("Fixes: #7")).toEqual(["#7"]);
    expect(names("This PR fixes #3, and resolves #4.")).toEqual(["#3", "#4"]);
  });

  it("reads another repository's issue and an issue's address", () => {
    expect(linkedIssues("Closes octo-org/octo-repo#100")).toEqual([
      { repository: "octo-org/octo-repo", number: 100 },
    ]);
    expect(names("Fixes https://github.com/acme/widgets/issues/9")).toEqual(["acme/widgets#9"]);
  });

  it("ignores mentions without a keyword, words that only end in one, and placeholders", () => {
    expect(names("See #12. Related to #13. prefixes #14, hotfix #15")).toEqual([]);
    expect(names("Fixes #<issue number>")).toEqual([]);
    expect(names("Fixes #")).toEqual([]);
    expect(names("Fixes # 12")).toEqual([]);
  });

  it("ignores a template's comments and code", () => {
    const text = [
      "<!-- Link the issue: Fixes #123 -->",
      "Run `git commit -m 'fixes #4'` to close.",
      "```",
      "closes #5",
      "```",
      "Resolves #6",
    ].join("\n");
    expect(names(text)).toEqual(["#6"]);
    // An unclosed comment hides the rest, as GitHub renders it.
    expect(names("Fixes #1 <!-- closes #2")).toEqual(["#1"]);
  });

  it("names each issue once, at most ten", () => {
    expect(names("Fixes #1. fixes #1. Closes #1")).toEqual(["#1"]);
    const many = Array.from({ length: 40 }, (_, i) => `fixes #${i + 1}`).join(" ");
    expect(linkedIssues(many)).toHaveLength(MAX_LINKED_ISSUES);
  });

  it("stays linear on hostile text", () => {
    const hostile =
      "fixes ".repeat(100_000) + "a/".repeat(100_000) + "<!--".repeat(50_000) + "`".repeat(100_001);
    const started = performance.now();
    expect(linkedIssues(hostile)).toEqual([]);
    expect(performance.now() - started).toBeLessThan(1000);
  });
});
