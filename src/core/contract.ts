import { PERSONAS, type PersonaId } from "./personas.js";

/**
 * The lists the contract names, defined once: the kinds a task is read as, the kinds of evidence an author gives,
 * and the personas' keys. The schemas (reading, backlog), the routes, and the web pages (through `pageContract`,
 * which the server puts into each page) all take them from here.
 */

/** The kinds of task the reader tells apart (`reading.kind`, the backlog's `kind`). */
export const KINDS = ["bug", "feature", "question", "docs", "refactor", "chore", "junk"] as const;
export type Kind = (typeof KINDS)[number];

/** How the pages name each kind: a short label (the board) and a phrase ("Read as a bug report"). */
export const KIND_NAMES: Readonly<Record<Kind, { label: string; phrase: string }>> = {
  bug: { label: "Bug", phrase: "a bug report" },
  // The model's "feature" is GitHub's "enhancement" ("New feature or request"), upkeep among it: readers of another
  // tracker took "a feature request" for a clean-up or a CI change as false (scripts/eval/kind-claim-tracker.ts).
  feature: { label: "Feature", phrase: "an enhancement request" },
  question: { label: "Question", phrase: "a question" },
  docs: { label: "Docs", phrase: "documentation work" },
  refactor: { label: "Refactor", phrase: "a refactor" },
  chore: { label: "Chore", phrase: "maintenance work" },
  junk: { label: "Junk", phrase: "not a task (junk)" },
};

/** What an author gave, each quoted in `reading.evidence`. */
export const EVIDENCE_TYPES = [
  "demand",
  "acceptance",
  "steps",
  "trace",
  "versions",
  "expected_actual",
  "screenshot",
  "code",
] as const;
export type EvidenceType = (typeof EVIDENCE_TYPES)[number];

/** The personas' keys, in the contract's order (their records are in personas.ts). */
export const PERSONA_KEYS = PERSONAS.map((p) => p.id) as unknown as readonly [PersonaId, ...PersonaId[]];
export type PersonaKey = PersonaId;

/** One value per persona, keyed by persona (a schema's shape, a row). */
export function perPersona<T>(value: (key: PersonaKey) => T): Record<PersonaKey, T> {
  return Object.fromEntries(PERSONA_KEYS.map((key) => [key, value(key)])) as Record<PersonaKey, T>;
}

/** What the pages' scripts need of the contract, as the server puts it into each page (`data-contract`). */
export function pageContract() {
  return {
    kinds: KIND_NAMES,
    evidence: EVIDENCE_TYPES,
    personas: PERSONAS.map((p) => ({ key: p.id, icon: p.icon, name: p.expert })),
  };
}
