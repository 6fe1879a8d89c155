/**
 * A model's reasoning may quote only the author's words (issue 35): a quoted span (“…”, "…" or `…`, the marks
 * ../shared/tools/report-worth.mjs reads as quotes) must be found in the task's title or description, compared
 * with whitespace squeezed, case ignored and markdown marks dropped. A span cut with "…" (or "...") counts when
 * its parts are found in order.
 */
const QUOTE_RE = /“([^”]{3,})”|"([^"]{3,})"|`([^`]{3,})`/g;

const squeeze = (s: string) => s.replace(/[‘’]/g, "'").replace(/\s+/g, " ").trim().toLowerCase();
const searchable = (s: string) => squeeze(s.replace(/[*_`#>]/g, " "));

function found(span: string, text: string): boolean {
  const parts = searchable(span)
    .split(/…|\.\.\./)
    .map((p) => p.trim().replace(/[.,;:!?]+$/, ""))
    .filter((p) => p.length > 0);
  let from = 0;
  for (const p of parts) {
    const at = text.indexOf(p, from);
    if (at < 0) return false;
    from = at + p.length;
  }
  return true;
}

/** The quoted spans of `reasoning` that are not the author's words, as they appear (with their marks). */
export function misquotes(reasoning: string, task: { task: string; description: string }): string[] {
  const text = searchable(`${task.task}\n${task.description}`);
  return [...reasoning.matchAll(QUOTE_RE)]
    .filter((m) => !found(m[1] ?? m[2] ?? m[3] ?? "", text))
    .map((m) => m[0]);
}

/** The reasoning with the marks of every misquoted span dropped: its words stay, no longer claimed as the author's. */
export function dropMisquotes(reasoning: string, task: { task: string; description: string }): string {
  const bad = new Set(misquotes(reasoning, task));
  if (bad.size === 0) return reasoning;
  return reasoning.replace(QUOTE_RE, (whole: string, a?: string, b?: string, c?: string) =>
    bad.has(whole) ? (a ?? b ?? c ?? "") : whole,
  );
}

/** What the repair message says about misquotes (the answer's own spans, cut short). */
export function misquoteProblem(spans: readonly string[]): string {
  const shown = spans
    .slice(0, 3)
    .map((s) => (s.length > 80 ? `${s.slice(0, 79)}…` : s))
    .join(", ");
  return `the reasoning quotes words that are not in the task (${shown}); quote only the author's exact words from the title or description, or use no quotation marks`;
}
