/**
 * What a task's text leaves out that a reviewer would need: the basis of the one line in the report
 * comment that says what would raise the score. Read from the text's structure only (headings,
 * numbered steps, code blocks, numbers, checklists), never from who wrote it.
 *
 * The signature is the contract: the renderer turns each gap into advice, so a smarter analysis
 * (the offline judge's) can replace the internals without touching the comment.
 */
export type TaskGap = "description" | "steps_to_reproduce" | "acceptance_criteria" | "evidence_of_demand";

/** A description shorter than this (after template comments are removed) says too little. */
const MIN_DESCRIPTION_CHARS = 40;

const BUG_WORDS =
  /\b(bug|crash(es|ed|ing)?|error|exception|fail(s|ed|ing|ure)?|broken|regression|doesn'?t work|does not work|not working|wrong|incorrect|404|500)\b/i;
const NUMBERED_STEPS = /^\s*(\d+[.)]|step\s+\d+)\s+\S/im;
const STEPS_HEADING = /^\s*(#+\s*|\*\*)?(steps to reproduce|repro(duction)?( steps)?|how to reproduce)\b/im;
const CODE_OR_TRACE =
  /```|^\s{4}\S|^\s*at \S+ \(|Traceback \(most recent call last\)|^\s*\w*(Error|Exception):/m;
const CHECKLIST = /^\s*[-*]\s+\[[ xX]\]\s+\S/m;
const CRITERIA_HEADING =
  /^\s*(#+\s*|\*\*)?(acceptance criteria|definition of done|done when|success criteria|requirements|expected (behaviou?r|result|outcome))\b/im;
const DEMAND_WORDS =
  /\b(customers?|users? (ask|request|want|need|report)|requested|requests? from|upvotes?|votes?|support tickets?|tickets?|churn|revenue|conversion|survey|interviews?|feedback)\b/i;
const NUMBER = /\d/;

function stripTemplate(text: string): string {
  return text.replace(/<!--[\s\S]*?-->/g, "").trim();
}

/** Is this a defect report rather than a request for something new? Judged mostly by the title. */
function isBugReport(task: string, description: string): boolean {
  if (BUG_WORDS.test(task)) return true;
  return /^\s*(#+\s*)?(bug|describe the bug|actual behaviou?r)\b/im.test(description);
}

export function findTaskGaps(task: string, description: string): TaskGap[] {
  const body = stripTemplate(description);
  const gaps: TaskGap[] = [];
  if (Array.from(body).length < MIN_DESCRIPTION_CHARS) gaps.push("description");
  if (isBugReport(task, body)) {
    const hasSteps = NUMBERED_STEPS.test(body) || STEPS_HEADING.test(body) || CODE_OR_TRACE.test(body);
    if (!hasSteps) gaps.push("steps_to_reproduce");
    return gaps;
  }
  if (!CHECKLIST.test(body) && !CRITERIA_HEADING.test(body)) gaps.push("acceptance_criteria");
  if (!DEMAND_WORDS.test(`${task}\n${body}`) && !NUMBER.test(body)) gaps.push("evidence_of_demand");
  return gaps;
}
