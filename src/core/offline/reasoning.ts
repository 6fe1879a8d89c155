/**
 * What each persona says, from the one reading of the task (read-task.ts): what in the text moves this persona,
 * in the author's words, and what would change its score, in its own terms. The rules (issue 35):
 *
 * - every quote is the author's own sentence or the reader's evidence, checked to stand in the text; template
 *   text (prompts, unfilled sections, unticked checklists, the tracker's notes) is never quoted (segments.ts);
 * - each persona quotes a different sentence where the text has enough of them, and no two personas of a report
 *   say the same sentence;
 * - an area (payments, import and export …) is named only where an author's sentence of the description names
 *   it, and that sentence is quoted; a product's or a label's name (Capitalised mid-sentence, or in quotes) is
 *   not an area;
 * - the kind is named only at a confidence where it was right 90% of the time on held-out data (KIND_CLAIM_BAR);
 *   below it, the reasoning says what the text does (asks, reports a problem);
 * - the acceptance estimate is said once, by the Product Manager;
 * - with nothing for a persona in the text, one short sentence of its own says so.
 *
 * The words are data: each persona's record (persona-records.ts: quotes, voice, areas).
 */
import { PERSONA_RECORDS } from "../persona-records.js";
import reasoningTerms from "./words/reasoning-terms.json" with { type: "json" };
import { PERSONAS, type PersonaId } from "../personas.js";
import { QUOTE_SHOWN, saysNothing, type Evidence, type EvidenceType } from "./read-evidence.js";
import { checkable, norm, q, standsIn } from "./reasoning-quotes.js";
import { ANGLE, firstAccount, readAsRequest, subjectOf, whatItDoes } from "./reasoning-subject.js";
import { askCue } from "./ask-sentences.js";
import { claimedKind, type TaskReading } from "./read-task.js";
import { DOTTED_NAME_RE } from "./structure-patterns.js";
import { isTemplate, type AuthorSentence } from "./segments.js";
import { accountLine, fieldAnswer, quotableAlone, withoutCode } from "./account-sentences.js";
import { areasIn, ownWordAt, type AreaHit } from "./reasoning-areas.js";

/** What the title's own rules read (docs, chore and refactor work), named as the title's word. */
const TAGGED_WORDS: Readonly<Record<string, string>> = {
  docs: "documentation work",
  chore: "maintenance work",
  refactor: "a refactor",
};

// ---------------------------------------------------------------------------------------------------------------
// Evidence's words

const ALT_RE = /!\[([^\]]*)\]|\balt\s*=\s*["']([^"']*)["']/i;
const GENERIC_ALT_RE =
  /^(?:image|img|screenshot|screen ?shot\b.*|picture|photo|untitled|grafik|bild|imagen|изображение)$/i;

/** The words of a piece of evidence a persona may quote: a screenshot's alt text, or the quote itself. */
function evidenceWords(e: Evidence): string | null {
  if (e.type !== "screenshot") return e.quote;
  const m = ALT_RE.exec(e.quote);
  const alt = (m?.[1] ?? m?.[2] ?? "").trim();
  // One word is a file's name ("download", "SavedScreen1212", "Screenshot_2023-01-05"), not what the picture shows.
  return /\p{L}{3}/u.test(alt) && /\s/.test(alt) && !GENERIC_ALT_RE.test(alt) ? alt : null;
}

// ---------------------------------------------------------------------------------------------------------------
// Each persona's lens (areas named in the author's sentences: reasoning-areas.ts)

/** Lens words that name no stake on their own (data, with the reasons, in `words/reasoning-terms.json`). */
const AMBIGUOUS_LENS = new Set(reasoningTerms.ambiguousLens);
/** Each persona's lens words, the ambiguous ones left out: made once, not for every task. */
const LENS = Object.fromEntries(
  PERSONAS.map((p) => [
    p.id,
    new Set(PERSONA_RECORDS[p.id].voice.lens.words.filter((w) => !AMBIGUOUS_LENS.has(w))),
  ]),
) as unknown as Record<PersonaId, ReadonlySet<string>>;

/**
 * A sentence that sets its subject aside ("Those are FS-specific optimizations and are not critical to …", "… is out
 * of scope"): its words are not what moves a persona (a reader took "the author mentions “optimizations”" from such a
 * sentence as misleading).
 */
const SET_ASIDE_RE =
  /\b(?:(?:are|is)(?: also)? not (?:critical|needed|required|necessary|important|essential|in scope|part of (?:this|the)|the (?:goal|point|focus))|out of (?:the )?scope|non-goals?|not (?:a|the) goal|no need (?:for|to))\b/i;

/**
 * A title's own words, lower case: a name joined by "." or "_" is not the title's words ("security" in
 * "org.apache.hadoop.security.UserGroupInformation" does not make a task about security and privacy).
 */
const titleWords = (title: string) => title.replace(DOTTED_NAME_RE, " ").toLowerCase();

/** Where a lower-case word stands whole (not inside another word) in lower-case text, or -1. */
function wordIndex(text: string, word: string): number {
  const letter = /\p{L}/u;
  for (let at = text.indexOf(word); at >= 0; at = text.indexOf(word, at + 1)) {
    if (!letter.test(text[at - 1] ?? " ") && !letter.test(text[at + word.length] ?? " ")) return at;
  }
  return -1;
}

// ---------------------------------------------------------------------------------------------------------------
// Each persona's candidates, and who quotes what

interface Candidate {
  /** The quoted text, normalised: two personas do not quote the same words where either has another choice. */
  key: string;
  say: string;
  /** Evidence of the persona's own kind, an area it weighs, or its lens: it may quote words another persona has. */
  own: boolean;
}

const SECTION_NOT_ASK_RE =
  /\b(?:steps|reproduc\w*|expected|actual|environment|versions?|system|platform|logs?|output|trace\w*|screenshots?|alternatives?|additional|context|workaround)\b/;

/**
 * Whether the title says the kind: by its own tag ("chore: …", "[Docs]") or by a verb that means nothing else,
 * opening it ("Bump axios …", "Document the retry policy"). A word further in ("Selectable Soft Dependencies") is
 * what the task works on, and "Release a tool for …" is no release: readers took "the title reads as maintenance
 * work" for those features' titles as false.
 */
const UNAMBIGUOUS_KIND_VERB_RE = /^(?:bump\w*|upgrad\w*|refactor\w*|document|deprecat\w*|deduplicat\w*)$/i;

function titleSays(r: TaskReading): boolean {
  const { titleTag, titleTagKind, kindCue: cue } = r.structure;
  if (titleTag) return titleTagKind === r.reading.kind;
  const title = r.task;
  return (
    !!cue &&
    UNAMBIGUOUS_KIND_VERB_RE.test(cue) &&
    title.trimStart().toLowerCase().startsWith(cue.toLowerCase())
  );
}

/**
 * How the Product Manager introduces the sentence it quotes: by what the sentence itself does (asks, reports a
 * problem), and by the kind only where the reader is sure of it and the sentence does what that kind does; a
 * sentence that is not the ask (the opening, quoted where no ask was found) is only "the author writes".
 */
function askFrame(r: TaskReading, text: string, isAsk: boolean): string {
  const tagged = TAGGED_WORDS[r.reading.kind];
  if (tagged && r.structure.kind === r.reading.kind && titleSays(r))
    return `The title reads as ${tagged}; the author writes`;
  if (!isAsk) return "The author writes";
  const kind = claimedKind(r);
  const cue = askCue(text);
  // A pull request's sentence says what it changes: as written, unless it asks.
  if (r.reading.pullRequest) return cue === "question" ? "It asks" : "The author writes";
  if (cue === "problem")
    return kind === "bug"
      ? "It reports a bug"
      : readAsRequest(r)
        ? "The author writes"
        : "It reports a problem";
  if (cue === "question") return "It asks";
  // A request the reader is not sure is a feature request is often what the author set out to do ("I want to
  // record on an external disk", "use tflite to invoke …"), not something asked of the maintainers: said as written.
  if (cue === "request") return kind === "feature" ? "It asks for an enhancement" : "The author writes";
  return "The author writes";
}

function candidates(
  r: TaskReading,
  persona: PersonaId,
  sentences: readonly AuthorSentence[],
  areas: readonly AreaHit[],
  text: string,
  wordsOf: readonly (readonly string[])[],
  account: (i: number) => boolean,
): Candidate[] {
  const record = PERSONA_RECORDS[persona];
  const out: Candidate[] = [];
  // The Product Manager quotes the author's ask first; without one, its own evidence, then the opening sentence.
  let opening: Candidate | undefined;
  if (persona === "product") {
    const found = (r.reading as { ask?: string | null }).ask;
    // The ask is the author's, never a template's prompt or the tracker's note.
    // Nor a sentence the reading quotes as evidence (a count of who is asking read as the ask): another persona
    // quotes it under its label, and the Product Manager goes on to its own.
    const quoted = found && r.reading.evidence.some((e) => norm(evidenceWords(e) ?? "") === norm(found));
    const ask = found && !isTemplate(found) && !quoted ? found : undefined;
    const sentence = (
      ask ??
      // The opening sentence, where no ask was found: the author's, not a form's list of fields or a log's line,
      // nor a form's question or label with the author's short answer after it ("Release with the issue: 0.105.2").
      (
        sentences.find((s, i) => !SECTION_NOT_ASK_RE.test(s.section) && account(i) && quotableAlone(s)) ??
        sentences.find((s, i) => account(i) && quotableAlone(s))
      )?.text
    )?.replace(/\s*\($/, "");
    if (sentence && !/https?:\/\/|\]\(/.test(sentence) && standsIn(sentence, text)) {
      const c = {
        key: norm(sentence),
        say: `${askFrame(r, sentence, !!ask)}: ${q(sentence, 200)}`,
        own: true,
      };
      if (ask) out.push(c);
      else opening = c;
    }
  }
  // Debt, for the architect: a shortcut taken ("Hard-code the flags") adds it; one taken out pays it down.
  const s = r.structure;
  if (persona === "architect" && s.kind === "refactor" && s.debt) {
    const words = [r.task, ...sentences.map((x) => x.text)].find(
      (x) => !!s.debtCue && x.toLowerCase().includes(s.debtCue.toLowerCase()) && standsIn(x, text),
    );
    if (words)
      out.push({
        key: norm(words),
        say: `${s.debt === "adds" ? "It adds technical debt rather than paying it down" : "It pays down technical debt"}: ${q(words)}`,
        own: true,
      });
  }
  const byType = new Map<EvidenceType, Evidence>(r.reading.evidence.map((e) => [e.type, e]));
  // A picture without words of its own is named only where nothing else speaks to this persona.
  let screenshot: string | undefined;
  for (const [type, label] of record.quotes) {
    const e = byType.get(type);
    if (!e) continue;
    const words = evidenceWords(e);
    // An import line is no code to start from; a label alone ("Expected behavior:") is no evidence.
    if (words && saysNothing(type, words)) continue;
    if (words && standsIn(words, text))
      out.push({ key: norm(words), say: `${label}: ${q(words)}`, own: true });
    else if (type === "screenshot") {
      // A picture without words of its own may be the program's input, a diagram or a photo, not what people see
      // on a screen (a fresh maintainer's reading): said as a picture attached, not under the persona's label.
      const subject = subjectOf(r, text, firstAccount(sentences));
      screenshot = `A picture is attached${subject === "here" ? "" : `, for ${subject.replace(/^in /, "")}`}`;
    }
  }
  if (opening) out.push(opening);
  const mine = areas
    .filter((a) => (a.weights[persona] ?? 0) >= 1 && !SET_ASIDE_RE.test(a.sentence.text))
    .sort((a, b) => (b.weights[persona] ?? 0) - (a.weights[persona] ?? 0));
  for (const a of mine) {
    // What the area would do for users ("makes the product feel faster") is not in the text: not said. The area is
    // named only where it is the task's subject (the title names it); a mention elsewhere, the ask's included
    // ("… so lets freeze it" is no outage), is said as the author's word, true by construction.
    // And by its label only where the label is the author's word ("performance" for "performance", not for
    // "caching", which a reader took as a claim about speed where the author wanted correctness): otherwise the
    // word itself is said.
    const label = a.label.toLowerCase();
    const word = a.word.toLowerCase();
    const stem = word.length > 4 ? word.replace(/(?:es|s|ing|ed)$/, "") : word;
    const subject =
      (label.includes(stem) || word.includes(label)) &&
      (r.themes.some((h) => h.concept.id === a.id) || wordIndex(titleWords(r.task), word) >= 0);
    // The word mentioned must stand in the part of the sentence shown, as a lens word must (a quote cut before it
    // reads as a mention of a word that is not there).
    if (!subject) {
      const at = a.sentence.text.toLowerCase().indexOf(a.word.toLowerCase());
      if (at < 0 || at + a.word.length > QUOTE_SHOWN - 2) continue;
    }
    out.push({
      key: norm(a.sentence.text),
      say: `${subject ? record.voice.area.replace("{area}", a.label) : record.voice.mention.replace("{word}", a.word)}: ${q(a.sentence.text)}`,
      own: true,
    });
  }
  const lens = LENS[persona];
  // A lead-in to a list or a paste ("… want to understand the following:") says nothing of its own.
  const ranked = sentences
    .map((s, i) => {
      let n = 0;
      for (const w of wordsOf[i]!) if (lens.has(w)) n++;
      return { s, i, n };
    })
    .filter((x) => x.n > 0 && account(x.i) && !fieldAnswer(x.s.text) && !SET_ASIDE_RE.test(x.s.text))
    .sort((a, b) => b.n - a.n || a.i - b.i)
    .slice(0, 3);
  for (const { s, i } of ranked) {
    // The introduction names the word that chose the sentence, as the author wrote it: true by construction,
    // where "the technical core" or "who it is for" claimed what the sentence is (issue 35's readings). The word
    // must stand in the part of the sentence shown, as the author's own word, as an area's must (ownWordAt): not a
    // product's Capitalised name ("[Monaco Editor Playground Repro](…)", a link a playground wrote), quoted or in code.
    let word = "";
    let at = -1;
    for (const w of wordsOf[i]!) {
      if (!lens.has(w)) continue;
      const found = ownWordAt(s.text, w);
      if (found >= 0 && found + w.length <= QUOTE_SHOWN - 2) {
        word = w;
        at = found;
        break;
      }
    }
    if (at < 0) continue;
    const shownWord = s.text.slice(at, at + word.length);
    out.push({
      key: norm(s.text),
      say: `${record.voice.lens.say.replace("{word}", shownWord)}: ${q(s.text)}`,
      own: true,
    });
  }
  if (screenshot) out.push({ key: `screenshot:${persona}`, say: screenshot, own: true });
  return out;
}

/**
 * Who picks first: the Product Manager (the author's ask is its sentence), then the personas with the fewest
 * sentences of their own in most texts.
 */
const PICK_ORDER: readonly PersonaId[] = ["product", "revenue", "marketing", "ux", "architect"];

/** What is not a letter or a digit, to compare quotes without marks (ASCII's punctuation, and the typographic). */
const NOT_LETTERS_RE = /[^a-z0-9\u00c0-\u024f\u0370-\u1fff\u2c00-\ud7ff\uf900-\ufeff]+/g;

/**
 * Words compared without marks and punctuation, and by their start: the ask quoted by the Product Manager may be the
 * same sentence with its markdown, or cut.
 */
const loose = (t: string) => t.toLowerCase().replace(NOT_LETTERS_RE, " ").trim();

/**
 * A sentence of the author's that no persona has quoted yet, for a persona with nothing of its own: the first that
 * is neither the title nor a lead-in to a list, and is the author's account (not a form's field, the environment,
 * the logs or a checklist, nor a greeting or a form's question).
 */
function unquoted(
  r: TaskReading,
  sentences: readonly AuthorSentence[],
  used: ReadonlyMap<string, number>,
  text: string,
  keys: (string | null | undefined)[],
): string | undefined {
  if (sentences.length === 0) return undefined;
  const quoted = [...used.keys()].map(loose).filter((k) => k.length >= 3);
  const heading = loose(r.task);
  for (let i = 0; i < sentences.length; i++) {
    const s = sentences[i]!;
    // Each sentence's key is made once per report (null: not quotable alone), whichever persona asks first.
    let key = keys[i];
    if (key === undefined) key = keys[i] = quotableAlone(s) ? loose(s.text) : null;
    if (key === null) continue;
    const start = key.slice(0, 40);
    if (heading.includes(key) || key.includes(heading)) continue;
    if (quoted.some((k) => k.includes(start) || key.includes(k.slice(0, 40)))) continue;
    if (standsIn(s.text, text)) return s.text;
  }
  return undefined;
}

/**
 * Each persona's grounded sentence: what in the text moves it, quoted, and what would raise its score. The
 * Product Manager's carries the acceptance estimate (`estimate`), said once per report.
 */
export function groundedSentences(r: TaskReading, estimate?: string): Record<PersonaId, string> {
  const text = checkable(`${r.task} ${r.description}`);
  const { sentences } = r.segments;
  // Piled-up keywords name no area: repetition earns nothing.
  const areas = sentences.length && !r.analysis.stuffing ? areasIn(sentences, !r.analysis.injection) : [];
  // Whether each sentence is the author's account, asked by several personas: read once per report.
  const accounts: (boolean | undefined)[] = [];
  const account = (i: number) => (accounts[i] ??= accountLine(sentences[i]!.text));
  // A file's or an identifier's name ("process_message.cpp") holds no lens word of the author's.
  const wordsOf = sentences.map(
    (s) =>
      withoutCode(s.text)
        .replace(DOTTED_NAME_RE, " ")
        .toLowerCase()
        .match(/[\p{L}]+/gu) ?? [],
  );
  /** How many personas quoted each sentence: at most two quote the same words. */
  const used = new Map<string, number>();
  const out = {} as Record<PersonaId, string>;
  const said = {} as Record<PersonaId, string | undefined>;
  for (const persona of PICK_ORDER) {
    const list = candidates(r, persona, sentences, areas, text, wordsOf, account);
    // Words no other persona quoted first; else its own evidence, area or lens, though another quoted them too.
    const pick = list.find((c) => !used.has(c.key)) ?? list.find((c) => c.own && (used.get(c.key) ?? 0) < 2);
    said[persona] = pick?.say;
    if (pick) used.set(pick.key, (used.get(pick.key) ?? 0) + 1);
  }
  // The personas with nothing of their own, once every other has chosen: the first says what the text does, in the
  // title's words; each next one quotes a sentence of the author's that no one has quoted (what it weighs, not a
  // claim of what the sentence is about), so that a report does not repeat its title in persona after persona.
  let withNothing = 0;
  const keys: (string | null | undefined)[] = [];
  for (const persona of PICK_ORDER) {
    if (said[persona] !== undefined) continue;
    const other = withNothing++ > 0 ? unquoted(r, sentences, used, text, keys) : undefined;
    if (other) used.set(norm(other), 1);
    said[persona] = other
      ? `It is ${ANGLE[persona]}; the author also writes: ${q(other)}`
      : `${whatItDoes(r, subjectOf(r, text, firstAccount(sentences)))}, ${ANGLE[persona]}`;
  }
  // The acceptance estimate is the Product Manager's, said once per report.
  for (const persona of PICK_ORDER)
    out[persona] = `${said[persona]!}${persona === "product" && estimate ? `; ${estimate}` : ""}.`;
  return out;
}

export { PERSONAS };
