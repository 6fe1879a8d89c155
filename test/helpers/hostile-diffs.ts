/**
 * Diffs at the request's limit (3,000,000 characters) shaped to find a parser that is not linear: one 3 MB
 * line, in a hunk and outside one; 100,000 empty hunks; headers without hunks; 50,000 files; a hunk whose
 * header promises far more lines than follow; a 3 MB quoted path full of escapes; `---` lines with no `+++`.
 * Shared by the test (which only checks they finish) and the bench (which times them).
 */
export const HOSTILE_DIFF_CHARS = 3_000_000;

const fill = (unit: string, chars = HOSTILE_DIFF_CHARS) =>
  unit.repeat(Math.ceil(chars / unit.length)).slice(0, chars);
const header = "diff --git a/x b/x\n--- a/x\n+++ b/x\n";

/**
 * The text as a request brings it: one flat string (JSON.parse and readFileSync make flat strings; `repeat` and
 * `+` make ropes, which V8 reads several times slower character by character).
 */
const flat = (text: string) => Buffer.from(text, "utf8").toString("utf8");

const SHAPES: Record<string, () => string> = {
  one_line_in_hunk: () => `${header}@@ -1 +1 @@\n+${fill("a", HOSTILE_DIFF_CHARS - 50)}`,
  one_line_as_header: () => `${header}${fill("diff --gi")}`,
  one_line_no_newline: () => fill("x"),
  empty_hunks_100k: () => header + fill("@@ -0,0 +0,0 @@\n", 100_000 * 16),
  headers_without_hunks: () => fill("diff --git a/x b/x\nindex 1..2 100644\n--- a/x\n+++ b/x\n"),
  files_50k: () =>
    Array.from(
      { length: 50_000 },
      (_, i) => `diff --git a/f${i} b/f${i}\n--- a/f${i}\n+++ b/f${i}\n@@ -1 +1 @@\n-a\n+b\n`,
    )
      .join("")
      .slice(0, HOSTILE_DIFF_CHARS),
  promised_lines: () =>
    `${header}@@ -1,999999999999 +1,999999999999 @@\n${fill("+a\n-b\n c\n", HOSTILE_DIFF_CHARS - 80)}`,
  quoted_path_escapes: () => `diff --git "a/${fill("\\303\\251", HOSTILE_DIFF_CHARS / 2 - 20)}" "b/x"\n`,
  minus_lines_no_plus: () => fill("--- a/x\n"),
  plus_minus_pairs: () => fill("--- a/x\n+++ b/x\n"),
  hunk_headers_garbage: () => fill("@@ -1,2 +3"),
  binary_lines: () => fill("Binary files a/x and b/x differ\n"),
  generated_markers_at_top: () => fill(`${header}@@ -0,0 +1,5 @@\n+${"Code generated ".repeat(30)}\n`),
};

export const HOSTILE_DIFFS: Record<string, () => string> = Object.fromEntries(
  Object.entries(SHAPES).map(([name, make]) => [name, () => flat(make())]),
);
