import { z } from "zod";
import { EXPERT_NAMES } from "./personas.js";
import { ReadingSchema } from "./reading.schema.js";

export const SCORE_MIN = 1;
export const SCORE_MAX = 10;

export const PersonaScoreSchema = z.number().int().min(SCORE_MIN).max(SCORE_MAX);

export const ExpertScoreSchema = z
  .object({
    expert: z.enum(EXPERT_NAMES),
    icon: z.string().meta({ description: "One emoji per persona: 💼, 🏗️, 🎨, 📊, 📢." }),
    score: PersonaScoreSchema.meta({ description: "Integer from 1 (worst) to 10 (best)." }),
    reasoning: z
      .string()
      .meta({ description: "The persona's justification, naming what in the task drove the score." }),
  })
  .meta({ id: "ExpertScore" });

export const ConsensusSchema = z
  .object({
    avgScore: z.number().meta({ description: "Exact arithmetic mean of the five scores (not rounded)." }),
    minScore: z.number(),
    maxScore: z.number(),
    approved: z.boolean().meta({
      description:
        "True when the average is at least 7, no persona is below 4, and at least 3 personas score 7 or more (thresholds are configurable).",
    }),
    timestamp: z.string().meta({
      description: "When the report was made: ISO 8601 UTC with milliseconds.",
      example: "2026-11-22T10:00:00.000Z",
    }),
  })
  .meta({ id: "Consensus" });

export const ScoreReportSchema = z
  .object({
    task: z.string().meta({ description: "The task name, echoed exactly as received." }),
    description: z
      .string()
      .meta({ description: 'The description, echoed exactly as received ("" when absent or null).' }),
    consensus: ConsensusSchema,
    expertScores: z.array(ExpertScoreSchema).length(5).meta({
      description:
        "Exactly five entries: Revenue Expert, Technical Architect, UX Designer, Product Manager, Marketing Strategist.",
    }),
    reading: ReadingSchema.meta({
      description:
        "What the reader found in the task: its kind, a bug's severity, the evidence with the author's own words, the language. The same for every scorer.",
    }),
  })
  .meta({ id: "ScoreReport" });

export type ExpertScore = z.infer<typeof ExpertScoreSchema>;
export type ScoreReport = z.infer<typeof ScoreReportSchema>;

export const ErrorBodySchema = z
  .object({
    error: z.object({
      code: z.string().meta({ description: "Stable snake_case error code.", example: "invalid_request" }),
      message: z.string().meta({ description: "A sentence a person can act on." }),
      details: z.record(z.string(), z.unknown()).optional(),
    }),
  })
  .meta({ id: "Error" });

export type ErrorBody = z.infer<typeof ErrorBodySchema>;
