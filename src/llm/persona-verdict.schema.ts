import { z } from "zod";

export const REASONING_MIN_CHARS = 20;
export const REASONING_MAX_CHARS = 1200;

/**
 * What one persona's model must answer. Checked after every call, whatever the provider promised:
 * an OpenAI-compatible server may ignore `strict`, and a bad number must never be clamped into range.
 */
export const PersonaVerdictOutputSchema = z.object({
  score: z
    .number({ error: "`score` must be a number" })
    .int({ error: "`score` must be a whole number" })
    .min(1, { error: "`score` must be at least 1" })
    .max(10, { error: "`score` must be at most 10" }),
  reasoning: z
    .string({ error: "`reasoning` must be a string" })
    .trim()
    .min(REASONING_MIN_CHARS, { error: `\`reasoning\` must be at least ${REASONING_MIN_CHARS} characters` })
    .max(REASONING_MAX_CHARS, { error: `\`reasoning\` must be at most ${REASONING_MAX_CHARS} characters` }),
});

export type PersonaVerdictOutput = z.output<typeof PersonaVerdictOutputSchema>;

/**
 * The same shape as a JSON Schema for `response_format: json_schema, strict: true`. Written by
 * hand in the subset strict mode accepts everywhere (no minimum/maximum/maxLength, which some
 * OpenAI-compatible servers and older Azure API versions reject); the range lives in the
 * descriptions and the prompt, and zod enforces it.
 */
export const PERSONA_VERDICT_JSON_SCHEMA = {
  type: "object",
  properties: {
    score: {
      type: "integer",
      description: "Your score for the task, a whole number from 1 (worst) to 10 (best).",
    },
    reasoning: {
      type: "string",
      description: `Why, in 1 to 4 sentences (${REASONING_MIN_CHARS}-${REASONING_MAX_CHARS} characters), naming what in the task drove the score.`,
    },
  },
  required: ["score", "reasoning"],
  additionalProperties: false,
} as const;

export const PERSONA_VERDICT_SCHEMA_NAME = "persona_verdict";

/** Strip one surrounding Markdown code fence: some compatible servers wrap JSON in ```json even when asked not to. */
function unfence(text: string): string {
  const m = /^\s*```(?:json)?\s*\n([\s\S]*?)\n?```\s*$/i.exec(text);
  return m ? m[1]! : text;
}

export type ParsedVerdict = { ok: true; value: PersonaVerdictOutput } | { ok: false; problem: string };

/** Parse and check a model's answer; the problem text is fed back to the model in the repair attempt. */
export function parseVerdict(content: string | null | undefined): ParsedVerdict {
  if (content === null || content === undefined || content.trim() === "") {
    return { ok: false, problem: "the answer was empty" };
  }
  let json: unknown;
  try {
    json = JSON.parse(unfence(content));
  } catch {
    return { ok: false, problem: "the answer was not valid JSON" };
  }
  const parsed = PersonaVerdictOutputSchema.safeParse(json);
  if (!parsed.success) {
    const problem = parsed.error.issues
      .map((i) =>
        i.path.length > 0 ? i.message : "the answer must be a JSON object with `score` and `reasoning`",
      )
      .join("; ");
    return { ok: false, problem: problem || "the answer did not match the schema" };
  }
  return { ok: true, value: parsed.data };
}
