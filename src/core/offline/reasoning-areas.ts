/**
 * The areas (payments, import and export …) an author's sentences name: an area is named only where a sentence of
 * the author's account says one of its terms as the author's own word (not a product's Capitalised name, not a
 * label in quotes or code), and that sentence is what a persona quotes for it (reasoning.ts). Pure.
 */
import type { PersonaId } from "../personas.js";
import { accountOf, withoutCode } from "./account-sentences.js";
import { conceptsIn } from "./analyze-task.js";
import type { AuthorSentence } from "./segments.js";
import reasoningTerms from "./words/reasoning-terms.json" with { type: "json" };

/** Terms too common in issues to name an area on their own: data, with the reasons, in `words/reasoning-terms.json`. */
const WEAK_TERMS = new Set(reasoningTerms.weakTerms);
/** Concepts that say why a task matters, or what kind it is, rather than what it is about: not areas. */
const NOT_AREAS = new Set(["bulk-generation", "hype", "fix-request", "defect", "removal", "documentation"]);

/**
 * Whether the word at [start, end) is joined to a name's other parts ("_" or "." with a letter or a digit on the
 * other side): a file's or an identifier's name, not prose ("process_message.cpp", "config.color"). A slash joins
 * prose words as often ("export/import", "UI/UX"), so it does not count.
 */
export function identifierPart(text: string, start: number, end: number): boolean {
  const joined = (mark: string | undefined, other: string | undefined) =>
    mark !== undefined &&
    (mark === "_" || mark === ".") &&
    other !== undefined &&
    /[\p{L}\p{N}]/u.test(other);
  return joined(text[start - 1], text[start - 2]) || joined(text[end], text[end + 1]);
}

/**
 * Where a term stands in the sentence as the author's own word for the area (its index, or -1): somewhere not
 * Capitalised in mid-sentence (a product's or company's name: "Simplify Commerce", "Home Assistant") and not in
 * quotes or backticks (a UI label, a setting, code).
 */
const COMPOUND_RE =
  /^-(?:managed|provided|supplied|specified|defined|generated|owned|controlled|side|level|specific|scoped)\b/i;

export function ownWordAt(original: string, term: string): number {
  const sentence = withoutCode(original);
  const lower = sentence.toLowerCase();
  let from = 0;
  for (let guard = 0; guard < 20; guard++) {
    const at = lower.indexOf(term.toLowerCase(), from);
    if (at < 0) return -1;
    from = at + 1;
    const before = sentence[at - 1] ?? " ";
    const after = sentence[at + term.length] ?? " ";
    if (/[\p{L}\p{N}]/u.test(before)) continue;
    if (/[`"“'‘[]/.test(before) || /[`"”'’\]]/.test(after)) continue;
    // A part of a file's or an identifier's name ("process_message.cpp", "data.message"): not the author's word.
    if (identifierPart(sentence, at, at + term.length)) continue;
    // The first half of a compound that names a thing ("a customer-managed key", "client-side retries", "user-defined
    // functions"): the key, the retries, the functions are what the sentence is about (a fresh reading took
    // "customer-managed" for paying users).
    if (COMPOUND_RE.test(sentence.slice(at + term.length, at + term.length + 16))) continue;
    const first = sentence[at]!;
    const capitalised =
      first !== first.toLowerCase() && /\p{Ll}/u.test(sentence.slice(at + 1, at + term.length + 1));
    if (capitalised && at > 0 && !/[.!?:]\s*$/.test(sentence.slice(0, at))) continue;
    return at;
  }
  return -1;
}

export interface AreaHit {
  id: string;
  label: string;
  weights: Partial<Record<PersonaId, number>>;
  why: Partial<Record<PersonaId, string>>;
  sentence: AuthorSentence;
  /** The area's word as the author wrote it in the sentence ("dark theme", "Caching"). */
  word: string;
}

/**
 * The areas the author's account names (the first 40 of its sentences, a form's lists of fields left out), each
 * with the first sentence that names it in the author's own word. `injectionFree`: the task held no instruction to
 * the scorer, so the scan does not look for one again.
 */
export function areasIn(all: readonly AuthorSentence[], injectionFree: boolean): AreaHit[] {
  const sentences = accountOf(all).slice(0, 40);
  // One scan of the sentences together (each closes its clause), then the first sentence that holds a term.
  const hits = conceptsIn(sentences.map((s) => s.text.replace(/[.!?]*$/, ".")).join("\n"), injectionFree);
  const out: AreaHit[] = [];
  for (const hit of hits) {
    const c = hit.concept;
    if (c.role === "evidence" || NOT_AREAS.has(c.id)) continue;
    const terms = hit.terms.filter((t) => !WEAK_TERMS.has(t));
    let found: { sentence: AuthorSentence; word: string } | undefined;
    for (const s of sentences) {
      for (const t of terms) {
        const at = ownWordAt(s.text, t);
        if (at >= 0) {
          found = { sentence: s, word: s.text.slice(at, at + t.length) };
          break;
        }
      }
      if (found) break;
    }
    if (!found) continue;
    out.push({ id: c.id, label: c.label, weights: c.weights, why: c.why, ...found });
  }
  return out;
}
