import type { ChangeReading } from "./change.schema.js";

const count = (n: number) => n.toLocaleString("en");
const files = (n: number) => `${count(n)} ${n === 1 ? "file" : "files"}`;

/**
 * "+412 −37 in 9 files · tests: 2 files · generated: 1 · size M": the change in one line of plain text, the same
 * on every surface (the comment's "**Change:**" line, the CLI's "Change:" line). Only numbers and fixed words,
 * nothing from the diff itself, so it needs no escaping. Generated files are named only when there are some;
 * a file list GitHub cut says so.
 */
export function renderChangeText(change: ChangeReading): string {
  // Only the pull request's totals: nothing is said about tests or generated files, which no one listed.
  if (change.totalsOnly)
    return `+${count(change.additions)} −${count(change.deletions)} in ${files(change.files)} · size ${change.size} · files not listed (the pull request's totals)`;
  const parts = [
    `+${count(change.additions)} −${count(change.deletions)} in ${files(change.files)}`,
    change.tests.files > 0 ? `tests: ${files(change.tests.files)}` : "no test files",
  ];
  if (change.generated > 0) parts.push(`generated: ${count(change.generated)}`);
  parts.push(`size ${change.size}`);
  if (change.truncated) parts.push(`GitHub listed the first ${files(change.files)} only`);
  return parts.join(" · ");
}
