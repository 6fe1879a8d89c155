/** What the structural reading of a task finds (read-structure.ts), as types the judge and the reasoning share. */
export type TaskKind = "bug" | "feature" | "refactor" | "docs" | "chore" | "question" | "ping" | "junk";
export type Severity = "data_loss" | "security" | "crash" | "wrong_result" | "cosmetic";
/** The severities that make a defect severe: it is a bug whatever the title's verb, and it ranks first. */
export const isSevere = (severity: string | null | undefined): boolean =>
  severity === "security" || severity === "data_loss" || severity === "crash";
export type JunkReason =
  | "no_title"
  | "one_word_title"
  | "placeholder_title"
  | "unfilled_template"
  | "no_content"
  | "advertising"
  | "accident_or_test"
  | "tracker_note";

export interface TaskStructure {
  kind: TaskKind;
  /** The title words that showed the kind, quoted in reasoning (null when it is the default, a feature). */
  kindCue: string | null;
  severity: Severity | null;
  severityCue: string | null;
  /** A refactor that pays debt down, or a change that adds it ("hard-code", "copy-paste"). */
  debt: "removes" | "adds" | null;
  debtCue: string | null;
  /** Generated or bulk content (hundreds of pages, auto-generated articles). */
  bulk: boolean;
  junk: JunkReason | null;
  /** The title carries a tag such as "[Bug]", "feat:" or "Feature request:". */
  titleTag: boolean;
  /** The kind the title's tag names ("chore:" → chore), or null: read once, for the reasoning to say "the title reads as …". */
  titleTagKind: TaskKind | null;
  /** A version number in the title ("Thunderbird 115 support", "crashes since 2.3.1"). */
  titleVersion: boolean;
  titleQuestion: boolean;
  /** Characters of the title without its tag: specific titles are longer. */
  titleChars: number;
  /** The title starts with a verb in the imperative ("Add …", "Update …", "Remove …"): a work item. */
  titleImperative: boolean;
  /** The title or description asks as a user would ("please", "I would like", "feature request", "wish"). */
  userRequest: boolean;
  /** Questions in the author's own text. */
  questions: number;
  /** Words of the title without its tag and parentheses (CJK counts one word per two characters). */
  titleWords: number;
  /** Words the author wrote: template headings and prompts, code, links and quoted text removed. */
  ownWords: number;
  /** Share of the description's non-empty lines that are template scaffolding (headings, prompts, checkboxes). */
  templateShare: number;
  /**
   * The share of the description's text (in characters) that is the template's and left unanswered: prompts,
   * labels, placeholders, and headings with nothing of the author's under them. A heading the author wrote
   * under ("## Why", then the reason) counts in templateShare (the fitted feature, by lines) but not here, and
   * a long paragraph weighs as much as its text: what a reasoning may call "template text".
   */
  promptShare: number;
  templateLines: number;
  steps: boolean;
  code: boolean;
  versions: boolean;
  /** Numbers about people or usage: "300 users", "40% of sessions", "12 upvotes". */
  demand: boolean;
  /** What done looks like: acceptance criteria, expected behaviour, a task list of the author's own. */
  acceptance: boolean;
  /** Expected versus actual behaviour, or "it should … instead". */
  expected: boolean;
  screenshot: boolean;
  links: number;
  /** Claims of value without evidence ("game-changer", "revenue-critical"). */
  hype: number;
  /**
   * The author's own text gives a measured number (a time, a size, a share, a factor: "3000 seconds", "10x slower",
   * "32%"): a hype word there sizes a problem, so "claims of value without evidence" is not said (a reader found it
   * beside timings and gists).
   */
  measured: boolean;
  /** The description has an "out of scope" list: what it names there is not part of the task. */
  outOfScope: boolean;
}

// ---------------------------------------------------------------------------------------------------
// Title
