import { readFileSync } from "node:fs";
import { describe, expect, it } from "@jest/globals";
import type { z } from "zod";
import { analyzeTask } from "../../src/core/offline/analyze-task.js";
import { readReading } from "../../src/core/offline/read-reading.js";
import { CONCEPTS } from "../../src/core/offline/signals.js";
import {
  ConceptsFileSchema,
  JunkTermsFileSchema,
  LanguagesFileSchema,
  NegationFileSchema,
  ReasoningTermsFileSchema,
} from "../../src/core/offline/words/word-lists.schema.js";
import { PERSONA_RECORDS } from "../../src/core/persona-records.js";
import { PERSONAS } from "../../src/core/personas.js";

/** The judge's word lists are JSON files that people edit: each is read from disk and checked by its schema. */
const FILES: [string, z.ZodType][] = [
  ["concepts.json", ConceptsFileSchema],
  ["junk-terms.json", JunkTermsFileSchema],
  ["negation.json", NegationFileSchema],
  ["languages.json", LanguagesFileSchema],
  ["reasoning-terms.json", ReasoningTermsFileSchema],
];
const read = (name: string): unknown =>
  JSON.parse(readFileSync(new URL(`../../src/core/offline/words/${name}`, import.meta.url), "utf8"));

describe("the word lists", () => {
  it.each(FILES)("%s matches its schema", (name, schema) => {
    const result = schema.safeParse(read(name));
    expect(result.success ? [] : result.error.issues).toEqual([]);
  });

  it("refuses the mistakes a person editing them would make", () => {
    const concepts = read("concepts.json") as { terms: string[] }[];
    const edited = (term: string) => [{ ...concepts[0], terms: [...concepts[0]!.terms, term] }];
    for (const bad of ["Stripe", " stripe", "pay*", "pay*ment", concepts[0]!.terms[0]!])
      expect([bad, ConceptsFileSchema.safeParse(edited(bad)).success]).toEqual([bad, false]);
    expect(ConceptsFileSchema.safeParse(edited("paymen*")).success).toBe(true);
    const junk = read("junk-terms.json") as { softSpam: string[]; spam: string[] };
    expect(JunkTermsFileSchema.safeParse({ ...junk, spam: [...junk.spam, junk.softSpam[0]] }).success).toBe(
      false,
    );
    expect(JunkTermsFileSchema.safeParse({ ...junk, extra: [] }).success).toBe(false);
  });

  it("every concept is weighed by a persona, and every persona's area is a concept", () => {
    const ids = new Set(CONCEPTS.map((c) => c.id));
    for (const c of CONCEPTS) expect([c.id, Object.keys(c.weights).length > 0]).toEqual([c.id, true]);
    for (const { id } of PERSONAS)
      for (const area of Object.keys(PERSONA_RECORDS[id].areas))
        expect([id, area, ids.has(area)]).toEqual([id, area, true]);
  });

  it("are what the judge reads: a term of each list changes what it finds", () => {
    // A concept's term names its theme.
    expect(analyzeTask("Add Stripe checkout", "").concepts.map((c) => c.concept.id)).toContain("payments");
    // A strong spam term alone makes a post advertising; a soft one alone does not.
    expect(readReading("Casino bonus", "").kind).toBe("junk");
    expect(readReading("Add a bonus round to the quiz mode", "").kind).not.toBe("junk");
    // A negator cancels the words after it.
    expect(
      analyzeTask("Refactor the parser", "No payment changes.").concepts.map((c) => c.concept.id),
    ).not.toContain("payments");
    // Stop words name the language.
    expect(
      readReading("Le bouton ne marche pas", "Quand je clique sur le bouton, rien ne se passe avec la page.")
        .language,
    ).toBe("fr");
  });
});
