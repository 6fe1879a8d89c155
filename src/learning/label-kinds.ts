/**
 * Which kind a repository's labels say an issue is. Rules, not a list of one project's names: a label is
 * normalised (lower case; emoji, punctuation and prefixes such as "type:", "kind/", "t-" or "issue-type:"
 * removed) and read for words that name a defect, a request or a question. A label that also says the issue was
 * invalid, a duplicate or not going to be done does not name its kind ("question (invalid tracker)" is the
 * exception a tracker makes for questions: it still says the issue was a question).
 */
import type { ModelKind } from "../core/offline/kind-model.js";

const PREFIX = /^(?:type|kind|issue[ -]?type|t|k|cat|category|area)[ :/_-]+/;

/** "Type: Bug" → "bug"; "❓ *question" → "question"; "kind/feature-request" → "feature request". */
export function normaliseLabel(name: string): string {
  let s = name
    .toLowerCase()
    .replace(/[^\p{L}\p{N}:/\s_-]+/gu, " ")
    .trim();
  for (let i = 0; i < 2 && PREFIX.test(s); i++) s = s.replace(PREFIX, "").trim();
  return s
    .replace(/[:/_-]+/g, " ")
    .replace(/\s+/g, " ")
    .trim();
}

const BUG = /\b(?:bugs?|defects?|crash(?:es)?|regressions?|broken|error)\b/;
const FEATURE = /\b(?:features?|enhancements?|requests?|proposals?|ideas?|suggestions?|rfc)\b/;
const QUESTION = /\b(?:questions?|support|help|how ?to|usage|discussion)\b/;
/** Words that say the label is about the fate, not its kind. */
const FATE = /\b(?:invalid|duplicate|wont ?fix|won t fix|not planned|stale|spam)\b/;
/** Names whose kind words mean something else: "help wanted" asks for contributors, "good first issue". */
const NOT_A_KIND = /\b(?:help wanted|good first|needs? (?:info|repro|more)|bug ?bounty|pull request)\b/;

/** The kind one label names, if it names one. */
export function kindOfLabel(name: string): ModelKind | undefined {
  const s = normaliseLabel(name);
  if (!s || NOT_A_KIND.test(s)) return undefined;
  const q = QUESTION.test(s);
  // A tracker that closes questions as invalid still says it was a question.
  if (FATE.test(s) && !q) return undefined;
  const kinds = new Set<ModelKind>();
  if (BUG.test(s)) kinds.add("bug");
  if (FEATURE.test(s) && !/\bfeature ?(?:bug|regression)\b/.test(s)) kinds.add("feature");
  if (q) kinds.add("question");
  // "bug or feature request?": a label that names two kinds names none.
  return kinds.size === 1 ? [...kinds][0] : undefined;
}

/** The kind an issue's labels agree on; none when they name none, or name two (a bug and a feature). */
export function kindOfLabels(names: readonly string[]): ModelKind | undefined {
  const kinds = new Set<ModelKind>();
  for (const n of names) {
    const k = kindOfLabel(n);
    if (k) kinds.add(k);
  }
  return kinds.size === 1 ? [...kinds][0] : undefined;
}

/** Label names from GitHub's issue JSON (strings or `{ name }` objects). */
export function labelNames(labels: unknown): string[] {
  if (!Array.isArray(labels)) return [];
  return labels
    .map((l) => (typeof l === "string" ? l : (l as { name?: unknown } | null)?.name))
    .filter((n): n is string => typeof n === "string");
}
