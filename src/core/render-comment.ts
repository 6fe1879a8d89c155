import type { ApprovalResult } from "./approval.js";
import type { ScoreReport } from "./score-report.schema.js";
import { findTaskGaps, type TaskGap } from "./task-gaps.js";
import { NEEDS_HUMAN, needsHumanReasons } from "./needs-human.js";
import { kindNamed } from "./offline/read-task.js";
import { saysNothing } from "./offline/read-evidence.js";
import { CHANGE_KIND_WORDS, KIND_WORDS } from "./kind-words.js";
import { renderChangeText } from "./change/render-change.js";

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
  /**
   * compact (the default): the persona table and the approval conditions are folded in `<details>`;
   * full: they are shown open. Both show the score, where it stands and what would raise it.
   */
  style?: CommentStyle;
  /** What the task leaves out; computed from the report's text when not given. */
  gaps?: readonly TaskGap[];
  /** Earlier issues of the repository like this one, best first (the App's similar-issues index). */
  similar?: readonly SimilarMention[];
}

/** An earlier issue like this one, as the comment names it. */
export interface SimilarMention {
  number: number;
  title: string;
  state: "open" | "closed";
  /** GitHub's `state_reason` of a closed issue: completed, not_planned, duplicate. */
  stateReason: string | null;
  /** In [0, 1]. */
  similarity: number;
  /** Likely the same issue (the index's duplicate bar, docs/similar-issues.md). */
  duplicate: boolean;
}

/**
 * The similarity from which an earlier issue is named as related: below the duplicate bar (0.85), a weaker claim.
 * The benchmark labels duplicates only, so this bar is chosen, not measured (docs/similar-issues.md).
 */
export const RELATED_AT = 0.6;

const STATE_WORDS: Record<string, string> = {
  completed: "closed as completed",
  not_planned: "closed as not planned",
  duplicate: "closed as a duplicate",
};

/**
 * "**Possibly the same as** #12 “Export fails on empty reports” (open)" where the best earlier issue passes the
 * duplicate bar; else "**Related:** #12, #40" (at most three above RELATED_AT); else nothing.
 */
export function renderSimilar(similar: readonly SimilarMention[] | undefined): string | undefined {
  if (!similar?.length) return undefined;
  const best = similar[0]!;
  if (possibleDuplicateOf(similar) !== undefined) {
    const state = best.state === "open" ? "open" : (STATE_WORDS[best.stateReason ?? ""] ?? "closed");
    return `**Possibly the same as** #${best.number} “${escapeMarkdown(truncate(best.title, 120))}” (${state})`;
  }
  const related = similar.filter((x) => x.similarity >= RELATED_AT).slice(0, 3);
  return related.length ? `**Related:** ${related.map((x) => `#${x.number}`).join(", ")}` : undefined;
}

/**
 * The earlier issue the line names as "Possibly the same as", if it does: what the possible-duplicate label
 * (`duplicate-label`) follows, so the label and the line never disagree.
 */
export function possibleDuplicateOf(similar: readonly SimilarMention[] | undefined): number | undefined {
  const best = similar?.[0];
  return best?.duplicate ? best.number : undefined;
}

export type CommentStyle = "compact" | "full";

/** What to add for each gap: the one line that says what would raise the score. */
const GAP_ADVICE: Record<TaskGap, string> = {
  description: "a description of the problem and who has it",
  steps_to_reproduce: "numbered steps to reproduce",
  versions: "the versions you use",
  expected_actual: "what you expected and what happened instead",
  error_output: "the error output or logs",
  acceptance_criteria: "acceptance criteria (a checklist of what done means)",
  evidence_of_demand: "who needs it: who asked for it, how many, how often",
};

/** "a and b", "a; b; and c" (the items carry commas of their own). */
function joinAnd(items: readonly string[]): string {
  if (items.length <= 2) return items.join(" and ");
  return `${items.slice(0, -1).join("; ")}; and ${items.at(-1)}`;
}

/** The one line on what would raise the score, or nothing when the text lacks nothing we look for. */
export function renderGapAdvice(gaps: readonly TaskGap[]): string | undefined {
  if (gaps.length === 0) return undefined;
  return `**What would raise the score:** add ${joinAnd(gaps.map((g) => GAP_ADVICE[g]))}.`;
}

/**
 * Text from a task or a model goes into a table cell: it must not break the table, inject HTML,
 * fake our marker, render links or images, or @mention anyone.
 */
export function escapeMarkdown(text: string): string {
  return (
    text
      .replace(/\r\n?|\n/g, " ")
      .replace(/&/g, "&amp;")
      .replace(/</g, "&lt;")
      .replace(/>/g, "&gt;")
      .replace(/([\\`*_{}[\]()#+!|~])/g, "\\$1")
      // Last, so the entity's "#" is not escaped into "&\#64;", which GitHub shows as it stands.
      .replace(/@/g, "&#64;")
  );
}

function truncate(text: string, max: number): string {
  const chars = Array.from(text);
  return chars.length <= max ? text : chars.slice(0, max - 1).join("") + "…";
}

function fmt(n: number): string {
  return Number.isInteger(n) ? String(n) : n.toFixed(1);
}

/**
 * The report as Markdown: the same text for the App's comment and the Action's comment and job
 * summary. It is posted on other people's issues, so the heading is neutral (where the score stands
 * against the approval bar, not a red cross) and the first thing after it is what would raise it.
 */
const EVIDENCE_WORDS: Record<string, string> = {
  demand: "Demand",
  acceptance: "Acceptance",
  steps: "Steps",
  trace: "Error output",
  versions: "Versions",
  expected_actual: "Expected/actual",
  screenshot: "Screenshot",
  code: "Code",
};

/** "**Asks:** “…”": the author's own sentence stating the request or problem; nothing where the reader found none. */
export function renderAsk(report: ScoreReport): string | undefined {
  const ask = report.reading?.ask;
  return ask ? `**Asks:** “${escapeMarkdown(ask)}”` : undefined;
}

/** "**Change:** +412 −37 in 9 files · tests: 2 files · generated: 1 · size M", where the report read a change. */
export function renderChange(report: ScoreReport): string | undefined {
  const change = report.reading?.change;
  return change ? `**Change:** ${renderChangeText(change)}` : undefined;
}

/**
 * "**Read as** a bug report (91% sure) · Steps: "1. Open…"": what the reader found, with the author's words. The
 * kind is named only at the bar where it was right 90% of the time (KIND_CLAIM_BAR; questions never); below it,
 * only the quotes ("**Found:** Steps: …"). No severity word: the reader quotes no evidence for it.
 */
export function renderReading(report: ScoreReport): string | undefined {
  const r = report.reading;
  if (!r) return undefined;
  const evidence = r.evidence
    .filter((e) => e.type !== "screenshot" && !saysNothing(e.type, e.quote))
    .slice(0, 3)
    .map((e) => `${EVIDENCE_WORDS[e.type]}: “${escapeMarkdown(truncate(e.quote, 90))}”`);
  // A pull request's change is read as what it does ("a fix"), not as the issue it would be ("a bug report"); a pull
  // request's text without its change is named as such, with no kind: the kind model reads issues, and readers took
  // "a feature request" for a pull request's text (a fix among them) as false.
  if (r.pullRequest && !r.change)
    return [`**Read as** a pull request's description`, ...evidence].join(" · ");
  const kindWords = (r.change ? CHANGE_KIND_WORDS : KIND_WORDS)[r.kind];
  if (kindNamed(r.kind, r.kindConfidence, report.task, r.change ? undefined : report.description))
    return [`**Read as** ${kindWords} (${Math.round(r.kindConfidence * 100)}% sure)`, ...evidence].join(
      " · ",
    );
  return evidence.length ? `**Found:** ${evidence.join(" · ")}` : undefined;
}

/**
 * "**Needs a human:** …": the personas' spread, and a kind the reader cannot tell, without naming a kind it is
 * unsure of.
 */
export function renderHumanLine(report: ScoreReport): string | undefined {
  const reasons = needsHumanReasons(report).filter((x) => !x.startsWith("the reader is only"));
  if (report.reading && report.reading.kindConfidence < NEEDS_HUMAN.kindConfidence)
    reasons.push("the reader cannot tell what kind of task this is");
  return reasons.length ? `**Needs a human:** ${reasons.join("; and ")}.` : undefined;
}

export function renderReport(report: ScoreReport, approval: ApprovalResult, options: RenderOptions): string {
  const { consensus } = report;
  const standing = consensus.approved ? "meets the approval bar" : "below the approval bar";
  const lines: string[] = [REPORT_MARKER, `### Task score ${fmt(consensus.avgScore)} / 10 · ${standing}`, ""];
  // What the author asks comes first, in the author's words.
  const ask = renderAsk(report);
  if (ask) lines.push(ask, "");
  const change = renderChange(report);
  if (change) lines.push(change, "");
  const similar = renderSimilar(options.similar);
  if (similar) lines.push(similar, "");

  for (const note of options.notes ?? []) lines.push(`> ⚠️ ${escapeMarkdown(note)}`);
  if (options.notes?.length) lines.push("");

  const advice = renderGapAdvice(options.gaps ?? findTaskGaps(report.task, report.description));
  if (advice) lines.push(advice, "");
  const reading = renderReading(report);
  if (reading) lines.push(reading, "");
  const human = renderHumanLine(report);
  if (human) lines.push(human, "");

  const compact = (options.style ?? "compact") === "compact";
  if (compact) {
    lines.push(
      "<details>",
      `<summary>Five personas: lowest ${consensus.minScore}, highest ${consensus.maxScore} · approval conditions</summary>`,
      "",
    );
  }
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
  for (const c of approval.conditions) lines.push(`- ${c.passed ? "✅" : "▫️"} ${c.summary}`);
  if (compact) lines.push("", "</details>");
  const footer = [`Scored by task-scorer (${escapeMarkdown(options.scorer)}) at ${consensus.timestamp}`];
  if (options.hint) footer.push(options.hint);
  lines.push("", `<sub>${footer.join(" · ")}</sub>`, "");
  return lines.join("\n");
}
