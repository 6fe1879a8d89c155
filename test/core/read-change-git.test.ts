import { execFileSync } from "node:child_process";
import { expect, it } from "@jest/globals";
import { isTestPath } from "../../src/core/change/classify-path.js";
import { parseUnifiedDiff } from "../../src/core/change/parse-diff.js";
import { readChange } from "../../src/core/change/read-change.js";
import { describeUnless } from "../helpers/skip.js";

/**
 * `reading.change` is exact on real diffs: this repository's own history, each commit's `git diff` read by the
 * parser and counted independently by git itself (`git diff --numstat`, binary files shown as "-"). The
 * recent commits, and older ones chosen for what they hold: binary files, renames, deleted files.
 */
const root = new URL("../..", import.meta.url);
// The same output on any machine: no user's prefixes, colours or external diff tools.
const GIT = ["-c", "diff.noprefix=false", "-c", "diff.mnemonicPrefix=false", "-c", "core.quotePath=true"];

function git(...args: string[]): string {
  return execFileSync("git", [...GIT, ...args], { cwd: root, maxBuffer: 256 << 20, encoding: "utf8" });
}

function whyNot(): string | undefined {
  try {
    if (git("rev-list", "--count", "HEAD").trim() === "1")
      return "the history has one commit (a shallow clone).";
    return undefined;
  } catch {
    return "git or this repository's history is not available.";
  }
}
const skip = whyNot();

function commits(...filter: string[]): string[] {
  return git("log", "--no-merges", "--format=%H", ...filter)
    .split("\n")
    .filter(Boolean);
}

interface Counted {
  path: string;
  additions: number;
  deletions: number;
}

/** `git diff --numstat -z`: "added\tdeleted\tpath\0", or "added\tdeleted\t\0old\0new\0" for a rename. */
function numstat(commit: string): Counted[] {
  const parts = git("diff", "-M", "--numstat", "-z", `${commit}^`, commit).split("\0");
  const rows: Counted[] = [];
  for (let i = 0; i < parts.length - 1; i++) {
    const [a, d, path] = parts[i]!.split("\t") as [string, string, string];
    const n = (s: string) => (s === "-" ? 0 : Number(s));
    if (path === "") {
      rows.push({ path: parts[i + 2]!, additions: n(a), deletions: n(d) });
      i += 2;
    } else rows.push({ path, additions: n(a), deletions: n(d) });
  }
  return rows;
}

describeUnless(skip, "reading.change on this repository's own commits, against git diff --numstat", () => {
  const chosen = skip
    ? []
    : [
        ...new Set([
          ...commits("-n", "30"),
          ...commits("-n", "5", "--diff-filter=R", "-M"),
          ...commits("-n", "5", "--diff-filter=D"),
          ...commits("-n", "5", "--diff-filter=A", "--", "*.png"),
        ]),
      ];

  it(`reads every file and line of ${chosen.length || "the"} commits exactly`, () => {
    const mismatches: string[] = [];
    let files = 0;
    let binary = 0;
    let renamed = 0;
    for (const commit of chosen) {
      const diff = git("diff", "-M", "--no-ext-diff", "--no-color", `${commit}^`, commit);
      const counted = numstat(commit);
      const read = parseUnifiedDiff(diff);
      const key = (f: Counted) => `${f.path}\t+${f.additions}\t-${f.deletions}`;
      const want = counted.map(key).sort();
      const got = read.map(key).sort();
      if (JSON.stringify(want) !== JSON.stringify(got))
        mismatches.push(`${commit}: ${want.join(", ")} | ${got.join(", ")}`);
      const change = readChange(diff);
      expect({
        commit,
        files: change.files,
        additions: change.additions,
        deletions: change.deletions,
      }).toEqual({
        commit,
        files: counted.length,
        additions: counted.reduce((s, f) => s + f.additions, 0),
        deletions: counted.reduce((s, f) => s + f.deletions, 0),
      });
      expect({ commit, tests: change.tests.files }).toEqual({
        commit,
        tests: counted.filter((f) => isTestPath(f.path)).length,
      });
      files += read.length;
      binary += read.filter((f) => f.binary).length;
      renamed += read.filter((f) => f.status === "renamed").length;
    }
    expect(mismatches).toEqual([]);
    expect(files).toBeGreaterThan(chosen.length);
    process.stderr.write(
      `read-change: ${chosen.length} commits, ${files} files (${binary} binary, ${renamed} renamed), 0 mismatches\n`,
    );
  });
});
