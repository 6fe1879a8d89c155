import { describe, expect, it } from "@jest/globals";
import { z } from "zod";
import { EVIDENCE_TYPES } from "../../src/core/offline/read-evidence.js";
import { KIND_ANGLE } from "../../src/core/offline/persona-rules.js";
import { CONCEPTS } from "../../src/core/offline/signals.js";
import { PERSONA_RECORDS } from "../../src/core/persona-records.js";
import { PERSONAS } from "../../src/core/personas.js";
import { PERSONA_PROMPTS } from "../../src/llm/prompts/index.js";

/** The data the judge, the prompts and the comment read: each persona's record and the word lists, checked. */
const conceptIds = new Set(CONCEPTS.map((c) => c.id));
const RecordSchema = z
  .object({
    raises: z.array(z.string().min(3)).min(1),
    lowers: z.array(z.string().min(3)).min(1),
    quotes: z.array(z.tuple([z.enum(EVIDENCE_TYPES), z.string().min(3)])).min(1),
    evidence: z.record(z.string(), z.number().min(-2).max(2)),
    areas: z.record(
      z.string().refine((id) => conceptIds.has(id), "an area must be a concept of words/concepts.json"),
      z.object({ weight: z.number().min(-5).max(5), why: z.string().min(5).optional() }).strict(),
    ),
    kinds: z.record(
      z.string(),
      z
        .object({ leaning: z.number().min(-3).max(3).optional(), angle: z.string().min(5).optional() })
        .strict(),
    ),
    voice: z
      .object({
        nothing: z.string().min(10),
        area: z.string().includes("{area}"),
        mention: z.string().includes("{word}"),
        lens: z
          .object({ words: z.array(z.string().regex(/^[a-z]+$/)).min(5), say: z.string().min(5) })
          .strict(),
        raise: z.array(
          z
            .object({
              kinds: z.array(z.enum(["bug", "feature", "refactor"])).min(1),
              unless: z.array(z.enum(EVIDENCE_TYPES)),
              say: z.string().min(10),
            })
            .strict(),
        ),
      })
      .strict(),
    llm: z
      .object({
        version: z.string().regex(/^[a-z]+-\d+$/),
        guidance: z.string().min(40),
        rubric: z.array(z.object({ scores: z.string(), meaning: z.string().min(10) }).strict()).length(5),
      })
      .strict(),
  })
  .strict();

describe("the persona records", () => {
  it.each(PERSONAS.map((p) => [p.expert, p.id] as const))("%s: a valid record", (_name, id) => {
    expect(() => RecordSchema.parse(PERSONA_RECORDS[id])).not.toThrow();
  });

  it("give every persona an angle for every kind of task", () => {
    for (const [shape, angles] of Object.entries(KIND_ANGLE))
      for (const { id } of PERSONAS) expect([shape, id, typeof angles[id]]).toEqual([shape, id, "string"]);
  });

  it("are what the LLM prompts are made of, band by band from 1 to 10", () => {
    for (const { id } of PERSONAS) {
      expect(PERSONA_PROMPTS[id].guidance).toBe(PERSONA_RECORDS[id].llm.guidance);
      expect(PERSONA_PROMPTS[id].rubric.map((b) => b.scores)).toEqual(["1-2", "3-4", "5-6", "7-8", "9-10"]);
    }
  });
});
