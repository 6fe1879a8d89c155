import { PERSONA_RECORDS } from "../persona-records.js";
import { PERSONAS, type PersonaId } from "../personas.js";
import type { TaskKind, Severity } from "./task-structure.js";

/**
 * How each persona leans, as data. The fitted model sets the consensus (the average); these leanings only
 * spread the five scores around it, each persona by its own angle, and are re-centred so that they add
 * nothing to the average. They are stated, not fitted: the labeled set says whether maintainers accepted
 * a task, not which expert would have liked it.
 */
export type Shape = TaskKind | `bug.${Severity}` | "refactor.removes" | "refactor.adds";

type Lean = Record<PersonaId, number>;
type Angled = Exclude<Shape, "junk" | "ping">;

/** Each persona's leaning for each shape of task, from its record (persona-records.ts). */
export const KIND_LEANING: Partial<Record<Shape, Lean>> = pivot((k) => k.leaning);

/** What each persona says about each kind of task: completes "It reads as …" with its angle (its record). */
export const KIND_ANGLE = pivot((k) => k.angle) as Record<Angled, Record<PersonaId, string>>;

function pivot<T>(
  pick: (k: { leaning?: number; angle?: string }) => T | undefined,
): Partial<Record<Shape, Record<PersonaId, T>>> {
  const out: Partial<Record<Shape, Record<PersonaId, T>>> = {};
  for (const { id } of PERSONAS) {
    for (const [shape, k] of Object.entries(PERSONA_RECORDS[id].kinds)) {
      const v = pick(k);
      if (v === undefined) continue;
      (out[shape as Shape] ??= {} as Record<PersonaId, T>)[id] = v;
    }
  }
  return out;
}

export const JUNK_SENTENCE: Record<string, string> = {
  advertising: "This reads as spam or advertising, not a development task",
  accident_or_test: "The text says this was filed by mistake or as a test",
  no_title: "The title has no words that say what the work is",
  one_word_title:
    "A one-word title with almost nothing of the author's own beneath it does not say what the work is",
  placeholder_title: "The title is still a template placeholder",
  unfilled_template:
    "The description is an unfilled issue template: headings and prompts with nothing of the author's own beneath them",
  no_content: "There is almost no text to act on",
  tracker_note: "This is a note about the tracker itself rather than work to do",
  ping: "This asks about status rather than describing work to do",
};
