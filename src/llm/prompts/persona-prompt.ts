import type { PersonaId } from "../../core/personas.js";

/** One band of a persona's rubric: what a score in `scores` means from that persona's angle. */
export interface RubricBand {
  scores: string;
  meaning: string;
}

/**
 * A persona's prompt as plain data, one module per persona. Bump `version` whenever the text or
 * rubric changes: it is part of the cache key, so a reworded prompt never serves stale verdicts.
 */
export interface PersonaPrompt {
  persona: PersonaId;
  version: string;
  /** How this persona thinks: slotted into the shared system frame (SHARED_PROMPT.system). */
  guidance: string;
  rubric: readonly RubricBand[];
}
