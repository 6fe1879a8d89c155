/** The title read for its structure: its tag, its kind, a defect's severity, debt taken on or paid down. */
import {
  CHORE_RE,
  DEBT_ADD_RE,
  DEBT_REMOVE_RE,
  DOCS_RE,
  FEATURE_VERB_RE,
  PARENS_RE,
  PING_RE,
  SEVERITY_RULES,
  SUPPORT_RE,
  TAG_KINDS,
  TAG_RE,
} from "./structure-patterns.js";
import { type TaskKind, isSevere, type TaskStructure } from "./task-structure.js";
import { countWords } from "./markdown-lines.js";

export const firstMatch = (re: RegExp, text: string) => {
  const m = re.exec(text);
  return m ? m[0].trim() : null;
};

/**
 * A cue that is the first word of a name ("Simplify Commerce", a payment gateway) is no cue: a Capitalised word
 * right after a Capitalised cue makes a name.
 */
function unlessName(body: string, cue: string | null): string | null {
  if (!cue) return cue;
  const at = body.toLowerCase().indexOf(cue.toLowerCase());
  const said = body.slice(at, at + cue.length);
  return /^\p{Lu}/u.test(said) && /^\s+\p{Lu}\p{Ll}/u.test(body.slice(at + cue.length)) ? null : cue;
}

/** A verb that takes something out, a few words before the shortcut it names ("remove the hard-coded …"). */
const TAKE_OUT_RE =
  /\b(?:remov\w*|replac\w*|get(?:ting)? rid of|eliminat\w*|avoid\w*|stop\w*|drop\w*|deprecat\w*|clean\w*(?: up)?|refactor\w*|dedup\w*|instead of|no (?:more|longer)|make configurable|configurable)\b[^.!?\n]{0,40}$/i;

/** Whether the text asks to take the shortcut out (it pays debt down) rather than to take it. */
export function removesShortcut(text: string, shortcut: string): boolean {
  const at = text.toLowerCase().indexOf(shortcut.toLowerCase());
  return at >= 0 && TAKE_OUT_RE.test(text.slice(0, at));
}

/** What the title alone says: the structure's kind fields, before the description can change them. */
interface TitleReading extends Pick<
  TaskStructure,
  "kind" | "kindCue" | "severity" | "severityCue" | "debt" | "debtCue"
> {
  tag: boolean;
  /** The kind the tag names ("chore:", "[Docs]"), or null. */
  tagKind: TaskKind | null;
  words: number;
  body: string;
}

export function readTitle(title: string): TitleReading {
  let rest = title.trim();
  let tagKind: TaskKind | null = null;
  let tag = false;
  for (let i = 0; i < 3; i++) {
    const m = TAG_RE.exec(rest);
    if (!m) break;
    tag = true;
    const label = (m[1] ?? m[2] ?? m[3] ?? m[4] ?? "").trim();
    for (const [re, kind] of TAG_KINDS) if (!tagKind && re.test(label)) tagKind = kind;
    if (!tagKind && /bug|crash/i.test(label)) tagKind = "bug";
    if (!tagKind && /feat|request|idea/i.test(label)) tagKind = "feature";
    rest = rest.slice(m[0].length);
  }
  // Parentheses are asides ("(also helps billing)"): the subject is what stands outside them.
  const body = rest.replace(PARENS_RE, " ").replace(/\s+/g, " ").trim();
  const words = countWords(body);
  const out: TitleReading = {
    kind: "feature",
    kindCue: null,
    severity: null,
    severityCue: null,
    debt: null,
    debtCue: null,
    tag,
    tagKind,
    words,
    body,
  };
  const ping = firstMatch(PING_RE, body);
  if (ping) return { ...out, kind: "ping", kindCue: ping };
  const support = firstMatch(SUPPORT_RE, body);
  if (support || tagKind === "question") return { ...out, kind: "question", kindCue: support };

  for (const [severity, re] of SEVERITY_RULES) {
    const cue = firstMatch(re, body);
    if (cue) {
      out.severity = severity;
      out.severityCue = cue;
      break;
    }
  }
  // "Remove the hard-coded timeout", "Replace the copy-pasted helpers": taking a shortcut out pays debt down.
  const shortcut = firstMatch(DEBT_ADD_RE, body);
  const takenOut = shortcut ? removesShortcut(body, shortcut) : false;
  const adds = takenOut ? null : shortcut;
  const removes = takenOut ? body : unlessName(body, firstMatch(DEBT_REMOVE_RE, body));
  if (adds) {
    out.debt = "adds";
    out.debtCue = adds;
  } else if (removes) {
    out.debt = "removes";
    out.debtCue = removes;
  }
  const featureVerb = firstMatch(FEATURE_VERB_RE, body);
  const docs = firstMatch(DOCS_RE, body);
  const chore = firstMatch(CHORE_RE, body);

  // A typo or wording problem in the docs is a docs task, however it is phrased.
  if (out.severity === "cosmetic" && docs) return { ...out, kind: "docs", kindCue: docs };
  if (tagKind && tagKind !== "feature") {
    const kind = tagKind === "bug" && !out.severity ? "bug" : tagKind;
    if (kind === "bug" && !out.severity) {
      out.severity = null;
    }
    return { ...out, kind, kindCue: out.severityCue ?? docs ?? chore ?? null };
  }
  // Severe defects are bugs whatever verb the title starts with ("Add a fix for the crash on …").
  if (isSevere(out.severity)) return { ...out, kind: "bug", kindCue: out.severityCue };
  if (out.debt) return { ...out, kind: "refactor", kindCue: out.debtCue };
  if (featureVerb || tagKind === "feature") {
    // "Add docs for …", "Update to 2.0": the verb asks for work, the object says which kind.
    if (docs && !out.severity) return { ...out, kind: "docs", kindCue: docs };
    return { ...out, kind: "feature", kindCue: featureVerb, severity: null, severityCue: null };
  }
  if (out.severity) return { ...out, kind: "bug", kindCue: out.severityCue };
  if (docs) return { ...out, kind: "docs", kindCue: docs };
  if (chore) return { ...out, kind: "chore", kindCue: chore };
  return out;
}
