import { z } from "zod";

/**
 * The shape of the judge's word lists (the JSON files beside this one). They are data, edited by people: the
 * schema test (test/core/word-lists.test.ts) reads every file through these, so a typo in a list fails CI
 * instead of quietly matching nothing.
 */

/**
 * A term as the matcher reads it: lowercase words on word boundaries; a trailing `*` matches any word that
 * starts with it, and needs at least five letters before the star so it cannot swallow common words.
 */
const Term = z
  .string()
  .min(1)
  .refine((t) => t === t.toLowerCase(), "terms are lowercase (the text is lowercased before matching)")
  .refine((t) => t === t.trim() && !/\s{2}/.test(t), "terms have no leading, trailing or double spaces")
  .refine(
    (t) => !t.includes("*") || /^[^*]{5,}\*$/.test(t),
    "a `*` ends a term and follows at least 5 letters",
  );

const uniqueList = (item: z.ZodType<string>) =>
  z
    .array(item)
    .min(1)
    .refine((xs) => new Set(xs).size === xs.length, "a list names each term once");

export const ConceptsFileSchema = z
  .array(
    z
      .object({
        id: z.string().regex(/^[a-z][a-z0-9-]*$/),
        label: z.string().min(2),
        terms: uniqueList(Term),
        /** Substrings, for scripts without spaces (Chinese, Japanese) and stems of inflected languages. */
        fragments: uniqueList(z.string().min(1)).optional(),
        role: z.literal("evidence").optional(),
      })
      .strict(),
  )
  .refine((cs) => new Set(cs.map((c) => c.id)).size === cs.length, "concept ids are unique");

export const JunkTermsFileSchema = z
  .object({
    /** Cues an honest issue can also contain: two different ones are needed. */
    softSpam: uniqueList(Term),
    /** Strong cues: one is enough. */
    spam: uniqueList(Term),
    spamFragments: uniqueList(z.string().min(1)),
    /** The tracker's own notes and unfilled placeholders. */
    meta: uniqueList(Term),
  })
  .strict()
  .refine((f) => !f.spam.some((t) => f.softSpam.includes(t)), "a term is soft or strong spam, not both");

export const NegationFileSchema = z
  .object({
    /** Words that cancel the next few words of their clause ("no UI changes"). */
    before: uniqueList(Term),
    /** "X stays unchanged", "X will not change", "X will not be changed". */
    unchanged: uniqueList(Term),
    changeVerbs: uniqueList(Term),
    changed: uniqueList(Term),
  })
  .strict();

export const LanguagesFileSchema = z
  .object({
    stopWords: z
      .array(z.object({ language: z.string().regex(/^[a-z]{2}$/), words: uniqueList(Term) }).strict())
      .min(1)
      .refine((ls) => ls[0]?.language === "en", "English comes first: a tie goes to the first language"),
    englishFunctionWords: uniqueList(Term),
  })
  .strict();

export const ReasoningTermsFileSchema = z
  .object({
    /** Why these lists exist, for the person editing them. */
    _about: z.string().min(1),
    /** Too common in issues to name an area on their own: an area needs another of its terms. */
    weakTerms: uniqueList(Term),
    /** Lens words that name no stake on their own. */
    ambiguousLens: uniqueList(Term),
  })
  .strict();
