import { createHash } from "node:crypto";
import { personaById, type PersonaId } from "../core/personas.js";
import type { TaskInput } from "../core/task-request.schema.js";
import { PERSONA_PROMPTS, SHARED_PROMPT } from "./prompts/index.js";
import { renderPrompt } from "./render-prompt.js";

/** A rough, tokenizer-free estimate that errs on the generous side for English and code. */
export const CHARS_PER_TOKEN = 4;

export interface Truncated {
  text: string;
  truncated: boolean;
  keptChars: number;
  totalChars: number;
}

/** Cut a description to about `maxTokens` tokens, on a code point boundary so no emoji is split. */
export function truncateToTokenBudget(text: string, maxTokens: number): Truncated {
  const limit = Math.max(1, Math.floor(maxTokens * CHARS_PER_TOKEN));
  const points = Array.from(text);
  if (points.length <= limit) {
    return { text, truncated: false, keptChars: points.length, totalChars: points.length };
  }
  return {
    text: points.slice(0, limit).join(""),
    truncated: true,
    keptChars: limit,
    totalChars: points.length,
  };
}

/** The version that goes into the cache key: the persona's own prompt and the shared parts. */
export function promptVersion(persona: PersonaId): string {
  return `${PERSONA_PROMPTS[persona].version}+${SHARED_PROMPT.version}`;
}

/**
 * A marker tag derived from the task itself: text inside the task cannot forge the closing marker,
 * because it would have to contain the hash of itself. Deterministic, so prompts stay cacheable.
 */
export function dataTag(input: TaskInput): string {
  return createHash("sha256")
    .update(input.task)
    .update("\u0000")
    .update(input.description)
    .digest("hex")
    .slice(0, 12);
}

export function renderSystemPrompt(persona: PersonaId): string {
  const prompt = PERSONA_PROMPTS[persona];
  const p = personaById(persona);
  return renderPrompt(SHARED_PROMPT.system, {
    expert: p.expert,
    angle: p.angle,
    guidance: prompt.guidance,
    rubric: prompt.rubric.map((b) => `- ${b.scores}: ${b.meaning}`).join("\n"),
    data_rules: SHARED_PROMPT.dataRules,
    output_format: SHARED_PROMPT.outputFormat,
  });
}

export function renderTaskMessage(
  input: TaskInput,
  maxInputTokens: number,
): { text: string; truncated: boolean } {
  const cut = truncateToTokenBudget(input.description, maxInputTokens);
  const truncationNote = cut.truncated
    ? renderPrompt(SHARED_PROMPT.truncationNote, {
        kept_chars: String(cut.keptChars),
        total_chars: String(cut.totalChars),
        max_tokens: String(maxInputTokens),
      })
    : "";
  // Without a cut there is nothing to say, and an empty line would only add noise.
  const template = cut.truncated
    ? SHARED_PROMPT.user
    : SHARED_PROMPT.user.replace("{{truncation_note}}\n", "");
  const text = renderPrompt(template, {
    truncation_note: truncationNote,
    tag: dataTag(input),
    title: input.task,
    description: cut.text.trim() === "" ? SHARED_PROMPT.noDescription : cut.text,
  });
  return { text, truncated: cut.truncated };
}

export function renderRepairMessage(problem: string): string {
  return renderPrompt(SHARED_PROMPT.repair, { problem });
}
