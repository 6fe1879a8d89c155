import { PERSONAS, type PersonaId } from "../personas.js";
import type { PersonaVerdict, Scorer } from "../scorer.js";
import type { TaskInput } from "../task-request.schema.js";
import { analyzeTask, type ConceptHit, type TaskAnalysis } from "./analyze-task.js";
import { PERSONA_RULES, type PersonaRules } from "./persona-rules.js";
import { SOFT_SPAM_TERMS } from "./signals.js";

const SOFT_SPAM = new Set(SOFT_SPAM_TERMS);

const clamp = (n: number) => Math.min(10, Math.max(1, Math.round(n)));
const quote = (terms: readonly string[]) => terms.map((t) => `"${t}"`).join(", ");
const capitalise = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

interface Judgement {
  score: number;
  sentences: string[];
}

function relevance(hits: ConceptHit[], persona: PersonaId) {
  // The title says what the task is about; themes only in the description are context and count less,
  // except that a problem named anywhere (bulk generation, say) still counts in full. The description
  // can support the title's subject, but cannot on its own make a task about something else into one
  // that matters more to this persona: that is how off-topic keywords get in.
  const w = (h: ConceptHit) => h.concept.weights[persona] ?? 0;
  const titleSubjects = hits.filter((h) => h.inTitle && h.concept.role !== "evidence");
  const titleBest = Math.max(0, ...titleSubjects.map(w));
  const place = (h: ConceptHit) =>
    h.inTitle
      ? 1
      : h.concept.role === "evidence" || titleSubjects.length === 0 || w(h) <= titleBest
        ? 0.8
        : 0.5;
  const positive = hits
    .map((h) => ({ hit: h, w: (h.concept.weights[persona] ?? 0) * place(h) }))
    .filter((x) => x.w > 0)
    // Title mentions first on ties: the title is what the task is about.
    .sort((a, b) => b.w - a.w || Number(b.hit.inTitle) - Number(a.hit.inTitle));
  const negative = hits
    .map((h) => ({ hit: h, w: (h.concept.weights[persona] ?? 0) * (h.inTitle ? 1.5 : 1) }))
    .filter((x) => x.w < 0);
  return { positive, negative };
}

/** One persona's judgement: its own base, its own weights, its own words. */
export function judge(
  a: TaskAnalysis,
  persona: PersonaId,
  rules: PersonaRules = PERSONA_RULES[persona],
): Judgement {
  const sentences: string[] = [];

  // One soft cue ("cheap", "contact us") proves nothing; a strong one or two different soft ones do.
  const softSpam = a.spam.filter((t) => SOFT_SPAM.has(t)).length;
  if (a.spam.length > softSpam || softSpam >= 2) {
    return {
      score: 1,
      sentences: [
        `This reads as spam, abuse or advertising (${quote(a.spam.slice(0, 3))}), not a development task; ${rules.spamAdvice}`,
      ],
    };
  }
  if (a.meta.length > 0) {
    return {
      score: a.vagueTitle || a.descriptionWords < 12 ? 1 : 2,
      sentences: [
        `This is a note about the tracker itself (${quote(a.meta.slice(0, 2))}) rather than work to do, so there is nothing to ${rules.verb}.`,
      ],
    };
  }

  let score = rules.base;
  const { positive, negative } = relevance(a.concepts, persona);
  // Diminishing returns: a task does not get better by touching every theme at once.
  const factors = [1, 0.5, 0.25];
  positive.slice(0, 3).forEach((x, i) => (score += x.w * factors[i]!));
  const penalty = Math.max(
    -4,
    negative.reduce((sum, x) => sum + x.w, 0),
  );
  score += penalty;
  if (a.stuffing) score = Math.min(score, rules.base + 1.5);

  const top = positive[0];
  if (top) {
    let s = `It ${top.hit.concept.why[persona]} (${quote(top.hit.terms)})`;
    const second = positive[1];
    if (second && second.w >= 1)
      s += `, and it ${second.hit.concept.why[persona]} (${quote(second.hit.terms)})`;
    sentences.push(s + ".");
  } else {
    sentences.push(rules.nothingFound);
  }
  for (const x of negative.slice(0, 1)) {
    sentences.push(`${top ? "But it" : "It"} ${x.hit.concept.why[persona]} (${quote(x.hit.terms)}).`);
  }

  const ruledOut = a.negated.filter((h) => (h.concept.weights[persona] ?? 0) >= 1.5);
  if (ruledOut.length > 0) {
    score -= 0.75;
    sentences.push(
      `The text rules out ${ruledOut[0]!.concept.label} (${quote(ruledOut[0]!.terms)}), which ${rules.ruledOut}.`,
    );
  }

  // How well the task is written matters most to the people who must plan and build it.
  const q = rules.quality;
  if (a.descriptionWords === 0) {
    score += q.empty;
    sentences.push(rules.emptyDescription);
  } else if (a.descriptionWords < 12) {
    score += q.thin;
  } else if (a.descriptionWords >= 40) {
    score += q.detailed;
  }
  if (a.hasProblem) score += q.problem;
  if (a.hasPlan) score += q.plan;
  if (a.hasSpecifics) score += q.specifics;
  if (a.priority === "high") score += q.highPriority;
  if (a.priority === "low") score += q.lowPriority;
  const qualityNote = rules.qualityNote?.(a);
  if (qualityNote && a.descriptionWords > 0) sentences.push(qualityNote);

  // Nothing recognisable and hardly any text: there is nothing to act on, whoever reads it.
  if (
    a.concepts.length === 0 &&
    a.descriptionWords < 12 &&
    !a.vagueTitle &&
    a.nonLatinShare <= 0.5 &&
    !a.foreignLatin
  )
    score -= 1;
  if (a.vagueTitle) {
    score -= a.descriptionWords < 12 ? 3 : 1.5;
    sentences.push("The title does not say what the work is.");
  }
  if (a.injection) {
    score -= 1 + rules.injectionExtra;
    sentences.push(
      "An instruction aimed at the scorer was found in the text; it was ignored and counts against the task.",
    );
  }
  if (a.stuffing) {
    score -= 1;
    sentences.push("The text repeats or piles up keywords; repetition earns no credit.");
  }
  if (a.supportQuestion) {
    score -= rules.supportQuestion;
    sentences.push(
      "The title asks how something works rather than asking for a change; it reads as a support question.",
    );
  }
  // Text the offline scorer reads only partly (another script or language): it stays near the middle.
  if ((a.nonLatinShare > 0.5 || a.foreignLatin) && a.concepts.length <= 1) {
    score = 4 + (score - 4) * 0.5;
    sentences.push(
      a.foreignLatin
        ? "Most of the text seems to be in a language the offline scorer reads only partly, so this is a cautious score."
        : "Most of the text is in a script the offline scorer reads only partly, so this is a cautious score.",
    );
  }

  return { score: clamp(score), sentences };
}

/**
 * The embedded scorer: deterministic, no network, no key. It reads the task once and lets each
 * persona weigh what it found from its own angle, naming the words that drove its score.
 */
export function scoreOffline(input: TaskInput): PersonaVerdict[] {
  const analysis = analyzeTask(input.task, input.description);
  return PERSONAS.map((p) => {
    const { score, sentences } = judge(analysis, p.id);
    return {
      persona: p.id,
      score,
      reasoning: capitalise(sentences.slice(0, 4).join(" ")),
      source: "offline",
    };
  });
}

export const offlineScorer: Scorer = {
  name: "offline",
  async score(input) {
    return scoreOffline(input);
  },
};
