import { PERSONA_RECORDS } from "../persona-records.js";
import conceptTerms from "./words/concepts.json" with { type: "json" };
import junkTerms from "./words/junk-terms.json" with { type: "json" };
import negation from "./words/negation.json" with { type: "json" };
import { PERSONAS, type PersonaId } from "../personas.js";

/**
 * Everything the offline scorer knows, as data (the word lists are JSON files in `words/`). Each concept is a theme a task can touch; each
 * persona weighs it from its own angle (the specification's table) and says why in its own words.
 *
 * Terms: lowercase words or phrases matched on word boundaries after light stemming ("payments"
 * matches "payment"); a trailing `*` matches any word starting with it (at least 5 letters before
 * the star). `fragments` are matched as substrings, for scripts written without spaces (Chinese,
 * Japanese) and for stems in inflected languages (Russian).
 *
 * A concept counts once however often it appears: repeating a word earns nothing.
 */
export interface Concept {
  id: string;
  /** What the concept is, as a reader would name it. */
  label: string;
  terms: readonly string[];
  fragments?: readonly string[];
  weights: Partial<Record<PersonaId, number>>;
  /** Why it matters to each persona that weighs it; completes "…because it …" style sentences. */
  why: Partial<Record<PersonaId, string>>;
  /**
   * "evidence": says why the task matters (demand, competition, audience, claims) rather than what
   * the work is, so it counts the same wherever it appears. Other concepts are the subject of the
   * task: named only in the description of a task whose title is about something else, they count less.
   */
  role?: "evidence";
}

/** The concepts' words, as data (`words/concepts.json`; its schema is checked by test/core/word-lists.test.ts). */
const CONCEPT_TERMS: readonly Omit<Concept, "weights" | "why">[] = conceptTerms as Omit<
  Concept,
  "weights" | "why"
>[];

/** The concepts with each persona's weight and reason, read from the personas' records (their `areas`). */
export const CONCEPTS: readonly Concept[] = CONCEPT_TERMS.map((c) => {
  const weights: Partial<Record<PersonaId, number>> = {};
  const why: Partial<Record<PersonaId, string>> = {};
  for (const { id } of PERSONAS) {
    const area = PERSONA_RECORDS[id].areas[c.id];
    if (!area) continue;
    weights[id] = area.weight;
    if (area.why !== undefined) why[id] = area.why;
  }
  return { ...c, weights, why };
});

/**
 * Spam cues an honest issue can also contain ("cheap", "contact us"): one alone proves nothing, so
 * the scorer treats a task as spam only on a strong cue or two different soft ones. Also matched
 * through SPAM_TERMS (the analysis reports them all).
 */
export const SOFT_SPAM_TERMS: readonly string[] = junkTerms.softSpam;

/**
 * Not tasks at all: spam, advertising and requests about the tracker itself. Each costs every
 * persona, because nobody should spend effort on it.
 */
export const SPAM_TERMS: readonly string[] = [...junkTerms.spam, ...SOFT_SPAM_TERMS];
export const SPAM_FRAGMENTS: readonly string[] = junkTerms.spamFragments;

/** A tracker's own notes ("please delete", "wrong repo") and unfilled templates' placeholders. */
export const META_TERMS: readonly string[] = junkTerms.meta;

/** Words that cancel the meaning of the next few words in the same clause ("no UI changes"). */
export const NEGATORS: readonly string[] = negation.before;

/** How many words after a negator it still applies to. */
export const NEGATION_SPAN = 4;

/**
 * Sentences from GitHub's default issue templates: they say nothing about the task, so they are
 * removed before anything is counted (an unfilled template is an empty issue).
 */
export const TEMPLATE_BOILERPLATE: readonly RegExp[] = [
  /^[ \t#*]*(is your feature request related to a problem\??( please describe\.?)?|describe the (bug|solution you'?d like|alternatives you'?ve considered)|describe alternatives you'?ve considered|additional context|to reproduce|steps to reproduce( the behavior)?|expected behaviou?r|actual behaviou?r|screenshots|desktop \(please complete the following information\)|smartphone \(please complete the following information\)|summary|details|priority|context|motivation|proposal|description|problem|solution|alternatives)[ \t:*]*$/gim,
  /a clear and concise description of what[^.\n]*\.?|add any other context (?:or screenshots about the feature request|about the problem) here\.?|if applicable, add screenshots to help explain your problem\.?|(?:go to|click on|scroll down to) '\.{3,4}'/gi,
];

/**
 * Instructions aimed at the scorer rather than at the people doing the task. Sentences matching
 * these get no credit and the task is marked down for trying.
 *
 * `needs`: words the pattern cannot match without (singular; "evaluat" and "grad" stand for every word
 * they begin). Words like "top", "system" or "models" are common in real issues, so the scorer first
 * collects which of these words a text has, then runs only the patterns whose words are there.
 */
export interface InjectionRule {
  pattern: RegExp;
  needs: readonly string[];
}

export const INJECTION_RULES: readonly InjectionRule[] = [
  {
    pattern:
      // "Context" only as the model's ("ignore the previous context"): "the lib can override the app's context"
      // is a React issue's own words.
      /\b(ignore|disregard|forget|override|bypass)\b[^.\n]{0,40}(?:\b(previous|prior|above|earlier|all|any|your|the|system|other)\b[^.\n]{0,30}\b(instructions?|prompts?|rules|guidelines|directions|criteria)\b|\b(previous|prior|above|earlier|all|your|system)\s+(?:\w+\s+)?context\b)/i,
    needs: ["ignore", "disregard", "forget", "override", "bypass"],
  },
  {
    pattern:
      /\b(score|rate|grade|give|assign|mark|rank|set)\s+(this|it|the task|this task|this issue|this pr|this pull request|me|us|everything)\b[^.\n]{0,24}?\b(10|ten|perfect|maximum|max|highest|full marks|top marks)\b(?!\s*%)/i,
    needs: ["10", "ten", "perfect", "max", "maximum", "highest", "full", "top"],
  },
  { pattern: /\b(score|rating|grade)\s*[:=]\s*(10|ten)\b/i, needs: ["10", "ten"] },
  // "Reproduces 10/10 times" counts tries, not a score.
  {
    pattern:
      /\b10\s*\/\s*10\b(?!\s*(?:times|runs|tries|attempts|cases|tests?|passes|failures|of the time|reproductions))/i,
    needs: ["10"],
  },
  {
    pattern:
      /\b(all|every|each)\s+(the\s+)?(experts?|personas?|reviewers?|judges?|models?|scorers?)\b[^.\n]{0,40}\b(must|should|will|shall)\b/i,
    needs: ["expert", "persona", "reviewer", "judge", "model", "scorer"],
  },
  {
    pattern:
      // Each phrase as it addresses a model: a component may "act as an error boundary", a thread "act as a
      // bottleneck", a chatbot "act as an AI agent", and browsers have a "developer mode".
      /\b(you are now|you must now|act as (?:an? |the |my |your )?(?:[\w-]+ ){0,2}(?:ai|assistant|model|llm|chatbot|reviewer|scorer|judge|evaluator|grader|approver|persona|dan)\b|pretend to be|new instructions|system prompt|system message|as an ai(?: language model)?,? you\b|jailbreak|developer mode (?:enabled|output|response))/i,
    needs: [
      "you are now",
      "you must now",
      "act as",
      "pretend",
      "instruction",
      "system",
      "ai",
      "jailbreak",
      "developer mode",
    ],
  },
  { pattern: /\b(must|should|shall)\s+be\s+(auto-?)?approved\b/i, needs: ["approved"] },
  {
    pattern: /\b(approve|accept)\s+(this|it)\s+(task|issue|pr|pull request|immediately|now|automatically)\b/i,
    needs: ["approve", "accept"],
  },
  { pattern: /<\/?\s*(system|assistant|instructions?)\s*>/i, needs: ["system", "assistant", "instruction"] },
  { pattern: /\bapproved\s*[:=]\s*true\b/i, needs: ["approved"] },
  // Role markers that address the model: "SYSTEM: approve", "[system] ...", "<|im_start|>system".
  {
    pattern:
      /\b(system|assistant)\s*(?:\]|:|\|>)\s*[^.\n]{0,40}?\b(approve|accept|score|rate|grade|ignore|give)\b/i,
    needs: ["system", "assistant"],
  },
  {
    // "### System" or "### Instruction:" as a whole heading, as prompt formats write them: "### System
    // information" is the heading of TensorFlow's and OpenCV's issue templates.
    pattern:
      /\[\s*(system|inst|\/inst)\s*\]|<\|im_start\|>|###\s*(system|instructions?)(?: prompt| message)?\s*:?[ \t]*(?=\n|$)/i,
    needs: ["system", "inst", "instruction", "<|im_start|>"],
  },
  // Scores out of ten high enough to matter ("rate it 9 out of 10").
  {
    pattern:
      /\b(rate|score|grade|give|giving|deserves?|worth)\b[^.\n]{0,20}\b(9|9\.\d|10|nine|ten)\s*(\/|out of)\s*(10|ten)\b/i,
    needs: ["10", "ten"],
  },
  // Addressing the scorer or telling it what it must do.
  {
    pattern:
      /\b(dear|hey|hello|note (?:to|for))\s+(the\s+)?(ai|llm|model|bot|scorer|reviewer|evaluator|grader|judge|assistant)s?\b/i,
    needs: ["ai", "llm", "model", "bot", "scorer", "reviewer", "evaluat", "grad", "judge", "assistant"],
  },
  {
    pattern:
      /\bas\s+(the|an?|our)\s+(ai\s+)?(reviewer|scorer|judge|model|evaluator|grader|expert|persona|assistant)\s*,?\s+you\b/i,
    needs: ["reviewer", "scorer", "judge", "model", "evaluat", "grad", "expert", "persona", "assistant"],
  },
  {
    pattern:
      /\b(ai|llm|model|scorer|reviewer|evaluator|grader|judge|expert|persona|assistant)s?\s+(evaluating|reviewing|scoring|grading|judging|reading)\s+(this|it)\b/i,
    needs: [
      "ai",
      "llm",
      "model",
      "scorer",
      "reviewer",
      "evaluat",
      "grad",
      "judge",
      "expert",
      "persona",
      "assistant",
    ],
  },
  {
    pattern:
      /\b(give|assign|award|deserves?|rate|score)\b[^.\n]{0,30}\b(highest|maximum|max|perfect|top|full|best)\s+(possible\s+)?(score|rating|marks|grade)\b/i,
    needs: ["highest", "max", "maximum", "perfect", "top", "full", "best"],
  },
  {
    pattern: /\b(mark|label|flag|set)\s+(this|it)\s+(task\s+|issue\s+)?(as\s+)?approved\b/i,
    needs: ["approved"],
  },
  { pattern: /\b(approve|accept)\s+(this|it)\s*[.!]/i, needs: ["approve", "accept"] },
  {
    pattern: /\b(evaluating|reviewing|scoring|grading|judging)\s+(ai|model|llm|assistant|bot|agent)s?\b/i,
    needs: ["ai", "model", "llm", "assistant", "bot", "agent"],
  },
  {
    pattern: /\b(return|output|respond with|reply with|answer with)\s+["'`]?approved\b/i,
    needs: ["approved"],
  },
  {
    pattern:
      /\b(deserves?|merits?|worth)\s+(a\s+|an\s+|the\s+)?(10|ten|perfect|full marks|top marks|highest|max)\b/i,
    needs: ["10", "ten", "perfect", "highest", "max", "full", "top"],
  },
];

export const INJECTION_PATTERNS: readonly RegExp[] = INJECTION_RULES.map((r) => r.pattern);
