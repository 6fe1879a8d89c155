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
