import { z } from "zod";
import { ChangeSchema } from "./change/change.schema.js";
import { EVIDENCE_TYPES, KINDS } from "./contract.js";

/** What the reader found in the task (the contract's `reading`): the same for every scorer. */
export const READING_KINDS = KINDS;
export const SEVERITIES = ["data_loss", "security", "crash", "wrong_result", "cosmetic"] as const;

export const EvidenceSchema = z
  .object({
    type: z.enum(EVIDENCE_TYPES),
    quote: z.string().meta({ description: "The author's own words (at most 140 characters)." }),
  })
  .meta({ id: "Evidence" });

export const ReadingSchema = z
  .object({
    kind: z.enum(READING_KINDS),
    kindConfidence: z.number().min(0).max(1).meta({ description: "The reader's probability for that kind." }),
    severity: z
      .enum(SEVERITIES)
      .optional()
      .meta({ description: "Bugs only, when the text says how bad it is." }),
    ask: z.string().max(240).nullable().meta({
      description:
        "The author's own sentence that states the request or the problem, quoted (at most 240 characters, cut at a word with “…”; a sentence wrapped over lines shows its line breaks as spaces), or null where the text has none. Template prompts, headings, greetings, boilerplate, code, logs and quotes of others never count, and the title is never repeated here.",
      example: "Saving a draft with an emoji in the title loses the whole draft.",
    }),
    evidence: z.array(EvidenceSchema).meta({
      description:
        "What the author gave, each with the author's own words: demand, acceptance, steps, trace, versions, expected_actual, screenshot, code.",
    }),
    language: z.string().meta({ description: "The text's language, as a two-letter code.", example: "en" }),
    pullRequest: z.literal(true).optional().meta({
      description:
        "Present (true) where the text is a pull request's description: “this PR”, a “Pull Request” checklist heading, or “Fixes #123” on a line of its own. The kind model reads issues, so the comment names no kind for such a text unless its change (`diff`) was read.",
    }),
    calibration: z.object({ repository: z.string(), closedIssues: z.number().int() }).nullable().meta({
      description: "Set when a repository's own closed issues adjusted the reader; null otherwise.",
    }),
    change: ChangeSchema.optional().meta({
      description:
        "What a pull request's change holds (files, lines, tests, docs, generated files, dependencies, size): present whenever a `diff` was sent, absent otherwise.",
    }),
  })
  .meta({ id: "Reading" });

export type Reading = z.infer<typeof ReadingSchema>;
