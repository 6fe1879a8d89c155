import type { PersonaId } from "../personas.js";
import type { TaskAnalysis } from "./analyze-task.js";

/**
 * How each persona turns the analysis into a score, beside the concept weights in signals.ts.
 * `base` is the score for a plainly written task that touches nothing this persona cares about.
 */
export interface PersonaRules {
  base: number;
  quality: {
    empty: number;
    thin: number;
    detailed: number;
    problem: number;
    plan: number;
    specifics: number;
    highPriority: number;
    lowPriority: number;
  };
  injectionExtra: number;
  /** Points off when the title is a support question ("How do I …?"). */
  supportQuestion: number;
  verb: string;
  nothingFound: string;
  ruledOut: string;
  emptyDescription: string;
  spamAdvice: string;
  qualityNote?: (a: TaskAnalysis) => string | undefined;
}

const noQuality = {
  empty: -1,
  thin: -0.5,
  detailed: 0,
  problem: 0,
  plan: 0,
  specifics: 0,
  highPriority: 0,
  lowPriority: 0,
};

export const PERSONA_RULES: Record<PersonaId, PersonaRules> = {
  revenue: {
    base: 3,
    quality: { ...noQuality },
    injectionExtra: 0,
    supportQuestion: 1,
    verb: "monetise",
    nothingFound:
      "Nothing in it touches payment, pricing or a revenue stream, so its revenue impact is indirect at best.",
    ruledOut: "removes the revenue angle",
    emptyDescription: "With no description, there is no business case to weigh.",
    spamAdvice: "close it.",
  },
  architect: {
    base: 4,
    quality: {
      empty: -1.5,
      thin: -0.5,
      detailed: 0.25,
      problem: 0,
      plan: 0.5,
      specifics: 0.75,
      highPriority: 0.5,
      lowPriority: 0,
    },
    injectionExtra: 0,
    supportQuestion: 1,
    verb: "build",
    nothingFound:
      "It names no integration point, code-quality or technical-debt concern to judge the engineering by.",
    ruledOut: "narrows the engineering scope",
    emptyDescription: "With no description there is no technical detail to design from.",
    spamAdvice: "there is no code to write.",
    qualityNote: (a) =>
      a.hasStackTrace
        ? "A stack trace or log pins down where it fails."
        : a.hasSpecifics
          ? "It names concrete code, files or versions."
          : a.descriptionWords >= 12
            ? "It gives no concrete code, files or versions to work from."
            : undefined,
  },
  ux: {
    base: 3.5,
    quality: {
      empty: -1,
      thin: -0.5,
      detailed: 0,
      problem: 0.5,
      plan: 0,
      specifics: 0,
      highPriority: 0.5,
      lowPriority: -0.5,
    },
    injectionExtra: 0,
    supportQuestion: 0.5,
    verb: "design",
    nothingFound: "Nothing says users will see or use this change, or which user problem it solves.",
    ruledOut: "means users will see less of it",
    emptyDescription: "With no description, the user problem is not stated.",
    spamAdvice: "no user is served by it.",
  },
  product: {
    base: 4,
    quality: {
      empty: -1.5,
      thin: -0.75,
      detailed: 0.5,
      problem: 0.75,
      plan: 0.75,
      specifics: 0.25,
      highPriority: 1,
      lowPriority: -1.5,
    },
    injectionExtra: 1,
    supportQuestion: 2,
    verb: "prioritise",
    nothingFound: "It does not connect to product fit, a user need or differentiation.",
    ruledOut: "narrows the scope",
    emptyDescription:
      "With no description there is no problem statement or acceptance criteria, so priority cannot be judged.",
    spamAdvice: "it should not enter the backlog.",
    qualityNote: (a) => {
      const parts: string[] = [];
      if (a.priority === "low") parts.push("the author marks it low priority");
      if (a.priority === "high") parts.push("the author marks it urgent or critical");
      if (a.hasProblem && a.hasPlan) parts.push("it states the problem and what the solution should do");
      else if (a.hasProblem) parts.push("it states the problem but not what done looks like");
      else if (a.hasPlan) parts.push("it outlines a solution but not the problem behind it");
      else parts.push("it states neither the problem nor acceptance criteria");
      return parts.length ? `For planning, ${parts.join("; ")}.` : undefined;
    },
  },
  marketing: {
    base: 3.5,
    quality: { ...noQuality },
    injectionExtra: 0,
    supportQuestion: 1,
    verb: "market",
    nothingFound:
      "There is nothing here a customer would notice or that sets the product apart, so it is hard to market.",
    ruledOut: "leaves less to show customers",
    emptyDescription: "With no description, there is no customer benefit to message.",
    spamAdvice: "it would only hurt the brand.",
  },
};
