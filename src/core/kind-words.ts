/** How a report names each kind of task in a sentence ("Read as a bug report", "only 45% sure this is a question"). */
export const KIND_WORDS: Record<string, string> = {
  bug: "a bug report",
  feature: "a feature request",
  question: "a question",
  docs: "documentation work",
  refactor: "a refactor",
  chore: "maintenance work",
  junk: "not a task (junk)",
};

/**
 * How the comment names the kind of a pull request's text (a report whose reading has a `change`): the kind model
 * reads issues, so a change read as a bug report is a fix and one read as a feature request is feature work.
 */
export const CHANGE_KIND_WORDS: Record<string, string> = {
  ...KIND_WORDS,
  bug: "a fix",
  feature: "feature work",
};
