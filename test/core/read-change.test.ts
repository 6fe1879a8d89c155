import { describe, expect, it } from "@jest/globals";
import {
  isDependencyPath,
  isDocPath,
  isGeneratedPath,
  isTestPath,
} from "../../src/core/change/classify-path.js";
import { parseUnifiedDiff } from "../../src/core/change/parse-diff.js";
import { readChange, readChangeFromFiles } from "../../src/core/change/read-change.js";
import { SIZE_CUTS, sizeBand } from "../../src/core/change/size-bands.js";

const lines = (...l: string[]) => `${l.join("\n")}\n`;

/** A modified file with `add` added and `del` removed lines. */
function modified(path: string, add: number, del: number, first = "x"): string {
  return lines(
    `diff --git a/${path} b/${path}`,
    "index 1111111..2222222 100644",
    `--- a/${path}`,
    `+++ b/${path}`,
    `@@ -1,${del + 1} +1,${add + 1} @@`,
    ` ${first}`,
    ...Array.from({ length: del }, (_, i) => `-old ${i}`),
    ...Array.from({ length: add }, (_, i) => `+new ${i}`),
  );
}

describe("parseUnifiedDiff", () => {
  it("counts hunk lines, not the ---/+++ headers, and knows a removed '-- x' line from a header", () => {
    const diff = lines(
      "diff --git a/a.md b/a.md",
      "index 1..2 100644",
      "--- a/a.md",
      "+++ b/a.md",
      "@@ -1,3 +1,3 @@",
      " # Title",
      "---- x", // removed line "--- x"
      "++++ y", // added line "+++ y"
      " end",
    );
    expect(parseUnifiedDiff(diff)).toEqual([
      {
        path: "a.md",
        status: "modified",
        additions: 1,
        deletions: 1,
        binary: false,
        markedGenerated: false,
      },
    ]);
  });

  it("reads several hunks, '\\ No newline at end of file' and CRLF line ends", () => {
    const diff = [
      "diff --git a/src/x.ts b/src/x.ts",
      "--- a/src/x.ts",
      "+++ b/src/x.ts",
      "@@ -1,2 +1,2 @@",
      " a",
      "-b",
      "\\ No newline at end of file",
      "+b",
      "\\ No newline at end of file",
      "@@ -10 +10,2 @@ function f() {",
      "-c",
      "+c",
      "+d",
      "",
    ].join("\r\n");
    const [file] = parseUnifiedDiff(diff);
    expect(file).toMatchObject({ path: "src/x.ts", additions: 3, deletions: 2 });
  });

  it("reads new, deleted, renamed and copied files", () => {
    const diff = lines(
      "diff --git a/new.txt b/new.txt",
      "new file mode 100644",
      "index 0000000..1111111",
      "--- /dev/null",
      "+++ b/new.txt",
      "@@ -0,0 +1,2 @@",
      "+one",
      "+two",
      "diff --git a/gone.txt b/gone.txt",
      "deleted file mode 100644",
      "index 1111111..0000000",
      "--- a/gone.txt",
      "+++ /dev/null",
      "@@ -1 +0,0 @@",
      "-one",
      "diff --git a/old name.txt b/new name.txt",
      "similarity index 100%",
      "rename from old name.txt",
      "rename to new name.txt",
      "diff --git a/lib/a.js b/lib/b.js",
      "similarity index 90%",
      "copy from lib/a.js",
      "copy to lib/b.js",
      "--- a/lib/a.js",
      "+++ b/lib/b.js",
      "@@ -1 +1 @@",
      "-a",
      "+b",
    );
    expect(
      parseUnifiedDiff(diff).map(({ path, previousPath, status, additions, deletions }) => ({
        path,
        previousPath,
        status,
        additions,
        deletions,
      })),
    ).toEqual([
      { path: "new.txt", previousPath: undefined, status: "added", additions: 2, deletions: 0 },
      { path: "gone.txt", previousPath: undefined, status: "removed", additions: 0, deletions: 1 },
      { path: "new name.txt", previousPath: "old name.txt", status: "renamed", additions: 0, deletions: 0 },
      { path: "lib/b.js", previousPath: "lib/a.js", status: "copied", additions: 1, deletions: 1 },
    ]);
  });

  it("reads paths with spaces (git's trailing tab) and quoted paths with escapes", () => {
    const diff = lines(
      "diff --git a/my file.txt b/my file.txt",
      "--- a/my file.txt\t",
      "+++ b/my file.txt\t",
      "@@ -1 +1 @@",
      "-a",
      "+b",
      'diff --git "a/\\303\\251t\\303\\251.txt" "b/\\303\\251t\\303\\251.txt"',
      '--- "a/\\303\\251t\\303\\251.txt"',
      '+++ "b/\\303\\251t\\303\\251.txt"',
      "@@ -1 +1,2 @@",
      " a",
      "+b",
      'diff --git "a/quote\\"d" "b/quote\\"d"',
      "new file mode 100644",
      "index 0000000..e69de29",
    );
    expect(parseUnifiedDiff(diff).map((f) => [f.path, f.additions, f.deletions])).toEqual([
      ["my file.txt", 1, 1],
      ["été.txt", 1, 0],
      ['quote"d', 0, 0],
    ]);
  });

  it("counts binary files as files with no lines (git's short line and GIT binary patch)", () => {
    const diff = lines(
      "diff --git a/logo.png b/logo.png",
      "index 1..2 100644",
      "Binary files a/logo.png and b/logo.png differ",
      "diff --git a/font.woff b/font.woff",
      "new file mode 100644",
      "index 0000000..3333333",
      "GIT binary patch",
      "literal 12",
      "zcmZ?wbhEHbRA5kGXkcIfg8",
      "",
      "literal 0",
      "HcmV?d00001",
      "",
      modified("a.ts", 1, 0).trimEnd(),
    );
    expect(parseUnifiedDiff(diff).map((f) => [f.path, f.binary, f.status, f.additions])).toEqual([
      ["logo.png", true, "modified", 0],
      ["font.woff", true, "added", 0],
      ["a.ts", false, "modified", 1],
    ]);
  });

  it("reads a diff without `diff --git`: plain diff -u, one file or several, timestamps after a tab", () => {
    const one = lines("--- a/x.py", "+++ b/x.py", "@@ -1 +1 @@", "-a", "+b");
    expect(parseUnifiedDiff(one).map((f) => [f.path, f.additions, f.deletions])).toEqual([["x.py", 1, 1]]);
    const two = lines(
      "diff -ur old/a.c new/a.c",
      "--- old/a.c\t2024-01-01 10:00:00.000000000 +0000",
      "+++ new/a.c\t2024-01-02 10:00:00.000000000 +0000",
      "@@ -1,2 +1,2 @@",
      " int x;",
      "-int y;",
      "+long y;",
      "--- old/b.c\t2024-01-01 10:00:00.000000000 +0000",
      "+++ new/b.c\t2024-01-02 10:00:00.000000000 +0000",
      "@@ -1 +1,2 @@",
      " a",
      "+b",
      "Binary files old/c.bin and new/c.bin differ",
    );
    expect(parseUnifiedDiff(two).map((f) => [f.path, f.additions, f.deletions, f.binary])).toEqual([
      ["new/a.c", 1, 1, false],
      ["new/b.c", 1, 0, false],
      ["new/c.bin", 0, 0, true],
    ]);
  });

  it("skips what is not the diff: a commit message above it, a '---' separator, an empty diff", () => {
    const patch = lines(
      "From 1234 Mon Sep 17 00:00:00 2001",
      "Subject: [PATCH] Fix it",
      "",
      "--- no plus line follows this one",
      "---",
      " a.ts | 2 +-",
      "",
      modified("a.ts", 1, 1).trimEnd(),
      "-- ",
      "2.43.0",
    );
    expect(parseUnifiedDiff(patch).map((f) => [f.path, f.additions, f.deletions])).toEqual([["a.ts", 1, 1]]);
    expect(parseUnifiedDiff("")).toEqual([]);
  });

  it("finds a generated-file header in a file's first lines, added or shown as context", () => {
    const go = lines(
      "diff --git a/api.pb.go b/api.pb.go",
      "new file mode 100644",
      "--- /dev/null",
      "+++ b/api.pb.go",
      "@@ -0,0 +1,3 @@",
      "+// Code generated by protoc-gen-go. DO NOT EDIT.",
      "+",
      "+package api",
    );
    const context = lines(
      "diff --git a/schema.ts b/schema.ts",
      "--- a/schema.ts",
      "+++ b/schema.ts",
      "@@ -1,3 +1,3 @@",
      " /* @generated by relay */",
      "-a",
      "+b",
    );
    const late = lines(
      "diff --git a/notes.ts b/notes.ts",
      "--- a/notes.ts",
      "+++ b/notes.ts",
      "@@ -40,1 +40,2 @@",
      " x",
      "+// Code generated by hand is fine here. DO NOT EDIT.",
    );
    expect(parseUnifiedDiff(go + context + late).map((f) => f.markedGenerated)).toEqual([true, true, false]);
  });
});

describe("the path rules", () => {
  it("test files: a test/tests/__tests__/spec/specs segment, or *.test.*, *.spec.*, *_test.*, test_*.py", () => {
    for (const p of [
      "test/a.ts",
      "src/tests/x.py",
      "src/__tests__/a.js",
      "spec/models/user_spec.rb",
      "app/specs/a.js",
      "Tests/FooTests/FooTests.swift",
      "src/a.test.ts",
      "src/a.spec.tsx",
      "pkg/a_test.go",
      "lib/a_test.rb",
      "test_utils.py",
      "pkg/test_api.py",
    ])
      expect([p, isTestPath(p)]).toEqual([p, true]);
    for (const p of [
      "src/testing.ts",
      "src/latest.ts",
      "test_utils.rb",
      "a.test",
      "src/contest/a.ts",
      "_test.go",
    ])
      expect([p, isTestPath(p)]).toEqual([p, false]);
  });

  it("documentation: *.md, *.mdx, *.rst, *.adoc, or under docs/", () => {
    for (const p of ["README.md", "a/b.MDX", "guide.rst", "x.adoc", "docs/conf.py", "pkg/docs/img.png"])
      expect([p, isDocPath(p)]).toEqual([p, true]);
    for (const p of ["doc.txt", "src/markdown.ts", "mydocs/a.ts"])
      expect([p, isDocPath(p)]).toEqual([p, false]);
  });

  it("generated: lockfiles, dist/, build/, vendor/, minified files", () => {
    for (const p of [
      "package-lock.json",
      "web/yarn.lock",
      "Cargo.lock",
      "go.sum",
      "dist/index.js",
      "build/out.css",
      "vendor/github.com/x/y.go",
      "static/app.min.js",
      "static/app.min.css",
    ])
      expect([p, isGeneratedPath(p)]).toEqual([p, true]);
    for (const p of ["src/build.ts", "distribution/a.ts", "package.json", "admin.js"])
      expect([p, isGeneratedPath(p)]).toEqual([p, false]);
  });

  it("dependencies: manifests and lockfiles by name", () => {
    for (const p of [
      "package.json",
      "packages/a/package.json",
      "package-lock.json",
      "yarn.lock",
      "pnpm-lock.yaml",
      "requirements.txt",
      "requirements-dev.txt",
      "Pipfile",
      "Pipfile.lock",
      "pyproject.toml",
      "poetry.lock",
      "go.mod",
      "go.sum",
      "Cargo.toml",
      "Cargo.lock",
      "Gemfile",
      "Gemfile.lock",
      "pom.xml",
      "build.gradle",
      "app/build.gradle.kts",
      "composer.json",
      "composer.lock",
      "src/App/App.csproj",
      "packages.config",
    ])
      expect([p, isDependencyPath(p)]).toEqual([p, true]);
    for (const p of ["src/package.ts", "requirements.md", "tsconfig.json", "Makefile"])
      expect([p, isDependencyPath(p)]).toEqual([p, false]);
  });
});

describe("readChange", () => {
  it("gives the contract's figures: files, lines, tests, docs, generated, dependencies, size", () => {
    const diff =
      modified("src/checkout.ts", 40, 5) +
      modified("src/checkout.test.ts", 30, 0) +
      modified("test/e2e/pay.spec.ts", 10, 2) +
      modified("docs/payments.md", 8, 1) +
      modified("package.json", 1, 0) +
      modified("package-lock.json", 900, 300) +
      lines("diff --git a/logo.png b/logo.png", "Binary files a/logo.png and b/logo.png differ");
    expect(readChange(diff)).toEqual({
      files: 7,
      additions: 989,
      deletions: 308,
      tests: { files: 2 },
      docs: 1,
      generated: 1,
      dependencies: ["package.json", "package-lock.json"],
      // 97 lines outside the lockfile: above p50 (31), within p80 (214).
      size: "M",
      truncated: false,
    });
  });

  it("sizes by lines outside generated files: a 4,000-line generated client beside a 3-line fix is XS", () => {
    const generated = lines(
      "diff --git a/client/api.ts b/client/api.ts",
      "new file mode 100644",
      "--- /dev/null",
      "+++ b/client/api.ts",
      "@@ -0,0 +1,4000 @@",
      "+// @generated by openapi-generator",
      ...Array.from({ length: 3999 }, (_, i) => `+export const x${i} = ${i};`),
    );
    const change = readChange(generated + modified("src/use.ts", 2, 1));
    expect(change).toMatchObject({ files: 2, additions: 4002, deletions: 1, generated: 1, size: "XS" });
  });

  it("uses Java's own bands when most lines counted are Java", () => {
    const lines = SIZE_CUTS.default[1] + 10; // S's upper bound for most languages, plus 10: M there
    expect(readChange(modified("src/Main.java", lines, 0)).size).toBe("S");
    expect(readChange(modified("src/main.py", lines, 0)).size).toBe("M");
  });

  it("bands: XS up to the first cut, XL above the last", () => {
    const [xs, s, m, l] = SIZE_CUTS.default;
    expect([0, xs, xs + 1, s, s + 1, m, m + 1, l, l + 1].map((n) => sizeBand(n))).toEqual([
      "XS",
      "XS",
      "S",
      "S",
      "M",
      "M",
      "L",
      "L",
      "XL",
    ]);
  });
});

describe("readChangeFromFiles (GitHub's file list)", () => {
  it("gives the same figures as the diff of the same change", () => {
    const diff =
      modified("src/a.go", 3, 1) +
      modified("src/a_test.go", 5, 0) +
      lines("diff --git a/img.png b/img.png", "Binary files a/img.png and b/img.png differ");
    const files = [
      {
        filename: "src/a.go",
        status: "modified",
        additions: 3,
        deletions: 1,
        changes: 4,
        patch: "@@ -1,2 +1,4 @@\n x\n-old 0\n+new 0\n+new 1\n+new 2",
      },
      { filename: "src/a_test.go", status: "modified", additions: 5, deletions: 0, changes: 5, patch: "@@" },
      { filename: "img.png", status: "modified", additions: 0, deletions: 0, changes: 0 },
    ];
    expect(readChangeFromFiles(files, false)).toEqual(readChange(diff));
    expect(readChangeFromFiles(files, true).truncated).toBe(true);
  });

  it("reads a generated marker from a file's patch, and the status GitHub gives", () => {
    const change = readChangeFromFiles(
      [
        {
          filename: "gen/x.go",
          status: "added",
          additions: 2,
          deletions: 0,
          patch: "@@ -0,0 +1,2 @@\n+// Code generated by mockgen. DO NOT EDIT.\n+package gen",
        },
        { filename: "y.go", previous_filename: "x.go", status: "renamed", additions: 0, deletions: 0 },
      ],
      false,
    );
    expect(change).toMatchObject({ files: 2, generated: 1, additions: 2, size: "XS" });
  });
});
