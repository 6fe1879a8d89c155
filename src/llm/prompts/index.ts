import type { PersonaId } from "../../core/personas.js";
import { architectPrompt } from "./architect.prompt.js";
import { marketingPrompt } from "./marketing.prompt.js";
import type { PersonaPrompt } from "./persona-prompt.js";
import { productPrompt } from "./product.prompt.js";
import { revenuePrompt } from "./revenue.prompt.js";
import { uxPrompt } from "./ux.prompt.js";

export const PERSONA_PROMPTS: Readonly<Record<PersonaId, PersonaPrompt>> = {
  revenue: revenuePrompt,
  architect: architectPrompt,
  ux: uxPrompt,
  product: productPrompt,
  marketing: marketingPrompt,
};

export { SHARED_PROMPT } from "./shared.prompt.js";
export type { PersonaPrompt, RubricBand } from "./persona-prompt.js";
