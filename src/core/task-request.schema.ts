import { z } from "zod";

/** GitHub's limit for an issue title. */
export const TASK_MAX_CHARS = 256;
/** GitHub's limit for an issue body. */
export const DESCRIPTION_MAX_CHARS = 65_536;

/** The longest `diff` a request may carry (the request body limit is 4 MiB, room for it and its JSON escapes). */
export const DIFF_MAX_CHARS = 3_000_000;

/**
 * Whether a text holds a unified diff's header anywhere: a `diff --git` line, or a `---` line followed by a
 * `+++` line. One pass of indexOf over the text, so a 3 MB diff costs a few milliseconds at most.
 */
export function hasDiffHeader(text: string): boolean {
  if (text.startsWith("diff --git ") || text.includes("\ndiff --git ")) return true;
  let at = text.startsWith("--- ") ? 0 : nextMinusLine(text, 0);
  while (at >= 0) {
    const end = text.indexOf("\n", at);
    if (end < 0) return false;
    if (text.startsWith("+++ ", end + 1)) return true;
    at = nextMinusLine(text, end);
  }
  return false;
}

/** Where the next line starting with "--- " begins, or -1. */
function nextMinusLine(text: string, from: number): number {
  const i = text.indexOf("\n--- ", from);
  return i < 0 ? -1 : i + 1;
}

/** Lengths are counted in Unicode code points, so an emoji is one character as a person counts it. */
export function codePointLength(text: string): number {
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    // A high surrogate followed by a low one is one code point; a lone surrogate still counts as one.
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) {
      const d = text.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) i++;
    }
    n++;
  }
  return n;
}

/**
 * A string never has more code points than UTF-16 units, so only text longer than the limit in units
 * needs counting: this runs on every request, and most descriptions are far below the limit.
 */
function withinCodePoints(text: string, max: number): boolean {
  return text.length <= max || codePointLength(text) <= max;
}

/**
 * The body of `POST /score-task`. Unknown fields are ignored (zod strips them); `task` and
 * `description` are echoed back exactly as received, so nothing here trims or rewrites them.
 */
export const ScoreRequestSchema = z
  .object({
    task: z
      .string({ error: "`task` is required and must be a string (the task's name, e.g. an issue title)." })
      .refine((s) => s.trim().length > 0, { message: "`task` must not be empty or only whitespace." })
      .refine((s) => withinCodePoints(s, TASK_MAX_CHARS), {
        message: `\`task\` must be at most ${TASK_MAX_CHARS} characters (GitHub's limit for an issue title).`,
      })
      .meta({
        description:
          "Name of the task to score, e.g. an issue or pull request title. Not empty after trimming.",
        example: "Add Stripe checkout",
        minLength: 1,
        maxLength: TASK_MAX_CHARS,
      }),
    description: z
      .string({ error: "`description` must be a string or null." })
      .refine((s) => withinCodePoints(s, DESCRIPTION_MAX_CHARS), {
        message: `\`description\` must be at most ${DESCRIPTION_MAX_CHARS} characters (GitHub's limit for an issue body).`,
      })
      .nullish()
      .transform((s) => s ?? "")
      .meta({
        description:
          "Longer description of the task, e.g. the issue body. Optional; absent or null means empty.",
        example: "Let free users upgrade to Pro",
        maxLength: DESCRIPTION_MAX_CHARS,
      }),
    diff: z
      .string({
        error: "`diff` must be a string: a unified diff, as `git diff` or GitHub's `.diff` gives it.",
      })
      .refine((s) => withinCodePoints(s, DIFF_MAX_CHARS), {
        message: `\`diff\` must be at most ${DIFF_MAX_CHARS.toLocaleString("en")} characters; send the diff of the pull request's own commits (git diff main...HEAD).`,
        abort: true,
      })
      .refine(hasDiffHeader, {
        message:
          "`diff` holds no diff header (a `diff --git` line, or `---` and `+++` lines): send a unified diff as `git diff` or GitHub's `.diff` gives it, not a file's text or a patch's summary.",
      })
      .optional()
      .meta({
        description:
          "The change of a pull request, a unified diff as `git diff` or GitHub's `.diff` gives it (at most 3,000,000 characters). Optional; when given, the report's `reading.change` states its files, lines, tests and size.",
        example:
          "diff --git a/src/a.ts b/src/a.ts\n--- a/src/a.ts\n+++ b/src/a.ts\n@@ -1 +1 @@\n-old\n+new\n",
        maxLength: DIFF_MAX_CHARS,
      }),
  })
  .meta({ id: "ScoreRequest" });

export type ScoreRequestInput = z.input<typeof ScoreRequestSchema>;
/** A validated task: `description` is always a string. */
export type TaskInput = z.output<typeof ScoreRequestSchema>;

/**
 * The common score request, `{ task }` or `{ task, description }` with short texts, checked by hand; any
 * other body (`undefined` here) is left to zod, whose answer, and error message, stands. For a body accepted here
 * the result is what `ScoreRequestSchema` gives for it, field for field and in the same order (a test compares the
 * two over generated bodies, and fails when the schema gains a field): zod's parse of this one body was the
 * largest single cost of the one-word REST path (measured: about 10 µs of a request's CPU at a load of 15, where
 * a request costs about 140 µs), because its generated parser and the checks it calls run cold between requests.
 */
export function quickScoreRequest(body: unknown): TaskInput | undefined {
  if (typeof body !== "object" || body === null || Object.getPrototypeOf(body) !== Object.prototype)
    return undefined;
  const { task, description } = body as { task?: unknown; description?: unknown };
  let fields = 0;
  for (const key in body) {
    if (key !== "task" && key !== "description") return undefined;
    fields++;
  }
  // Longer texts are counted in code points (withinCodePoints), which zod does.
  if (typeof task !== "string" || task.length > TASK_MAX_CHARS || task.trim().length === 0) return undefined;
  // Absent or null is "" (zod's nullish, then its transform).
  if (description === null || (description === undefined && fields === 1)) return { task, description: "" };
  if (typeof description !== "string" || description.length > DESCRIPTION_MAX_CHARS) return undefined;
  return { task, description };
}
