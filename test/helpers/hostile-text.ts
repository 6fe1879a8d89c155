/** Units that, repeated to 64 KiB, probe the patterns for backtracking over the whole text. */
export const HOSTILE_UNITS = [
  "d",
  "a.",
  "0.",
  "1:",
  "1. ",
  "e.",
  "d-",
  "/",
  "(1,",
  "a ",
  "a\n",
  "\n",
  "```",
  "![",
  "[",
  "error:",
  "I get this error ",
  "should be ",
  "x, and then ",
  "open ",
  "`a",
  '"',
  "### ",
  "###System\n",
  "- ",
  "ab.com ",
  "http://",
  "<!--",
  "v1.",
  "at ",
  "|",
  "*",
  "_",
  ":",
  "<img ",
  "Steps:\n",
  "Expected: ",
  // Found by fuzzing units of markdown (a link's opening with no address closed; CJK, which `\W` matches).
  "![](",
  "中](",
  ";😀中",
];

/**
 * Units that run away only where the text ends on something else: "-1.1.1" repeated and then "/" made the version's
 * path test scan to the end from every "-" (5 s at 64 KiB, found by review).
 */
export const HOSTILE_CLOSED: readonly { unit: string; end: string }[] = [{ unit: "-1.1.1", end: "/" }];

/** A hostile text of `bytes` characters: the unit repeated, then its ending. */
export function hostileText(unit: string, bytes: number, end = ""): string {
  return unit.repeat(Math.ceil(bytes / unit.length)).slice(0, bytes - end.length) + end;
}
