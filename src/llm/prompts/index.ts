import { PERSONA_RECORDS } from "../../core/persona-records.js";
import { PERSONAS, type PersonaId } from "../../core/personas.js";
import type { PersonaPrompt } from "./persona-prompt.js";

/** Each persona's prompt, read from its record (src/core/persona-records.ts): one place per persona. */
export const PERSONA_PROMPTS: Readonly<Record<PersonaId, PersonaPrompt>> = Object.fromEntries(
  PERSONAS.map(({ id }) => [id, { persona: id, ...PERSONA_RECORDS[id].llm }]),
) as Record<PersonaId, PersonaPrompt>;

export { SHARED_PROMPT } from "./shared.prompt.js";
export type { PersonaPrompt, RubricBand } from "./persona-prompt.js";
