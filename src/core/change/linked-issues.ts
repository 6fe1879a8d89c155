/**
 * The issues a pull request says it closes, by GitHub's closing keywords in its description: close, closes,
 * closed, fix, fixes, fixed, resolve, resolves, resolved (any case, a colon allowed after the keyword), then
 * `#12`, `owner/repo#12` or an issue's address on github.com. Pure and linear: one pass of one bounded pattern
 * over the text, with code (fenced blocks, inline spans) and HTML comments left out first, since a template's
 * "<!-- Fixes #123 -->" or a quoted command is no claim by the author.
 */

export interface LinkedIssue {
  /** Set for `owner/repo#12` and addresses; absent for `#12` (this repository). */
  repository?: string;
  number: number;
}

/**
 * What the App holds for an issue a pull request closes: its latest report's average score and whether it was
 * approved. Looked up outside the core (the App's backlog) and passed in; the core only reads it.
 */
export interface LinkedReport {
  readonly score: number;
  readonly approved: boolean;
}

/**
 * The linked issues' reports, by their names as `issueName` gives them ("#12", "owner/repo#12"). Whoever fills it
 * holds reports of its own repository only, so another repository's issue is never in it and is named only.
 */
export type LinkedReports = ReadonlyMap<string, LinkedReport>;

/** At most this many are kept: a description that "fixes" hundreds of issues says nothing about any one. */
export const MAX_LINKED_ISSUES = 10;

const OWNER = "[A-Za-z0-9](?:[A-Za-z0-9-]{0,38})";
const REPO = "[A-Za-z0-9._-]{1,100}";
const CLOSING = new RegExp(
  `\\b(?:close[sd]?|fix(?:e[sd])?|resolve[sd]?):?[ \\t]+` +
    `(?:(${OWNER})\\/(${REPO}))?#(\\d{1,9})\\b|` +
    `\\b(?:close[sd]?|fix(?:e[sd])?|resolve[sd]?):?[ \\t]+https?:\\/\\/github\\.com\\/(${OWNER})\\/(${REPO})\\/issues\\/(\\d{1,9})\\b`,
  "gi",
);

/** The text without fenced code blocks, inline code spans and HTML comments (each replaced by a space). */
function withoutCode(text: string): string {
  const kept: string[] = [];
  let fence: string | undefined;
  for (const line of text.split("\n")) {
    const trimmed = line.trimStart();
    const marker = trimmed.startsWith("```") ? "```" : trimmed.startsWith("~~~") ? "~~~" : undefined;
    if (fence) {
      if (marker === fence) fence = undefined;
      kept.push("");
      continue;
    }
    if (marker) {
      fence = marker;
      kept.push("");
      continue;
    }
    kept.push(line);
  }
  return kept
    .join("\n")
    .replace(/<!--[\s\S]*?(?:-->|$)/g, " ")
    .replace(/`[^`\n]*`/g, " ");
}

export function linkedIssues(description: string): LinkedIssue[] {
  const found: LinkedIssue[] = [];
  const seen = new Set<string>();
  for (const m of withoutCode(description).matchAll(CLOSING)) {
    const owner = m[1] ?? m[4];
    const repo = m[2] ?? m[5];
    const number = Number(m[3] ?? m[6]);
    if (!(number > 0)) continue;
    const issue: LinkedIssue = owner && repo ? { repository: `${owner}/${repo}`, number } : { number };
    const key = issueName(issue).toLowerCase();
    if (seen.has(key)) continue;
    seen.add(key);
    found.push(issue);
    if (found.length >= MAX_LINKED_ISSUES) break;
  }
  return found;
}

/** "#12", or "owner/repo#12" for another repository's issue. */
export function issueName(issue: LinkedIssue): string {
  return `${issue.repository ?? ""}#${issue.number}`;
}
