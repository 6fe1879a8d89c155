import { KIND_NAMES, KINDS } from "./contract.js";

/**
 * How a report names each kind of task in a sentence ("Read as a bug report", "only 45% sure this is a question"):
 * the pages' phrases, one list.
 */
export const KIND_WORDS: Record<string, string> = Object.fromEntries(
  KINDS.map((k) => [k, KIND_NAMES[k].phrase]),
);

/**
 * How the comment names the kind of a pull request's text (a report whose reading has a `change`): the kind model
 * reads issues, so a change read as a bug report is a fix and one read as an enhancement request is feature work.
 */
export const CHANGE_KIND_WORDS: Record<string, string> = {
  ...KIND_WORDS,
  bug: "a fix",
  feature: "feature work",
};
