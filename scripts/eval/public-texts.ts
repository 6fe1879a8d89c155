import { development } from "./holdout.js";
import { loadLabeled } from "./labeled-corpus.js";
import { loadNlbse } from "./nlbse.js";

/** One public text as a scorer sees it: a title and a description, with where it came from. */
export interface PublicText {
  source: "nlbse24-train" | "corpus-development";
  repo: string;
  title: string;
  description: string;
}

/**
 * Every public text the judge may be measured on while it is being changed: the NLBSE'24 training split and the
 * labeled corpus's development part (../shared/corpus/labeled-issues.jsonl holds real-issues.jsonl's 60 too).
 * Never the holdout: it is read once, at the end. Undefined where ../shared is absent (a user's clone).
 */
export function loadPublicTexts(): PublicText[] | undefined {
  const nlbse = loadNlbse("train");
  const labeled = loadLabeled();
  if (!nlbse || !labeled) return undefined;
  return [
    ...nlbse.map((r) => ({
      source: "nlbse24-train" as const,
      repo: r.repo,
      title: r.title,
      description: r.body,
    })),
    ...development(labeled).map((r) => ({
      source: "corpus-development" as const,
      repo: r.repo,
      title: r.task,
      description: r.description ?? "",
    })),
  ];
}
