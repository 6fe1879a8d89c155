import type { ApprovalResult } from "./approval.js";
import type { ScoreReport } from "./score-report.schema.js";

/**
 * The hidden marker that identifies the one report comment on an issue or pull request. The App and
 * the Action both look for it, so either can update a comment the other wrote.
 */
export const REPORT_MARKER = "<!-- task-scorer:report -->";

/** GitHub rejects comments over 65,536 characters; leave room for the table around the reasoning. */
const MAX_REASONING_CHARS = 1200;

export interface RenderOptions {
  /** Scorer and model shown in the footer, e.g. "offline" or "openai gpt-4o-mini". */
  scorer: string;
  /** Lines shown above the table, e.g. configuration keys that were ignored. Plain text, escaped here. */
  notes?: readonly string[];
  /** Hint shown in the footer, e.g. "Comment `/score` to score again." (trusted Markdown). */
  hint?: string;
}

/**
 * Text from a task or a model goes into a table cell: it must not break the table, inject HTML,
 * fake our marker, render links or images, or @mention anyone.
 */
export function escapeMarkdown(text: string): string {
  return text
    .replace(/\r\n?|\n/g, " ")
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/@/g, "&#64;")
    .replace(/([\\`*_{}[\]()#+!|~])/g, "\\$1");
}

function truncate(text: string, max: number): string {
  const chars = Array.from(text);
  return chars.length <= max ? text : chars.slice(0, max - 1).join("") + "…";
}

function fmt(n: number): string {
  return Number.isInteger(n) ? String(n) : n.toFixed(1);
}

/** The report as Markdown: the same text for the App's comment and the Action's comment and job summary. */
export function renderReport(report: ScoreReport, approval: ApprovalResult, options: RenderOptions): string {
  const { consensus } = report;
  const verdict = consensus.approved ? "✅ Approved" : "❌ Not approved";
  const lines: string[] = [REPORT_MARKER, `### Task score: ${fmt(consensus.avgScore)} / 10 · ${verdict}`, ""];

  for (const note of options.notes ?? []) lines.push(`> ⚠️ ${escapeMarkdown(note)}`);
  if (options.notes?.length) lines.push("");

  lines.push("| Persona | Score | Reasoning |", "| --- | :-: | --- |");
  for (const e of report.expertScores) {
    lines.push(
      `| ${e.icon} ${e.expert} | **${e.score}** | ${escapeMarkdown(truncate(e.reasoning, MAX_REASONING_CHARS))} |`,
    );
  }
  lines.push(
    "",
    `**Consensus:** average **${fmt(consensus.avgScore)}**, lowest ${consensus.minScore}, highest ${consensus.maxScore}.`,
    "",
  );
  for (const c of approval.conditions) lines.push(`- ${c.passed ? "✅" : "❌"} ${c.summary}`);
  const footer = [`Scored by task-scorer (${escapeMarkdown(options.scorer)}) at ${consensus.timestamp}`];
  if (options.hint) footer.push(options.hint);
  lines.push("", `<sub>${footer.join(" · ")}</sub>`, "");
  return lines.join("\n");
}
