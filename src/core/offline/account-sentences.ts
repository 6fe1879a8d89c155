/**
 * Which of the author's sentences (segments.ts) tell the author's own account, for the reasoning to quote: not a
 * lead-in to what was pasted below it, a form's list of fields, a line of a log or of code, and, for a persona with
 * nothing of its own, not a form's field or option, a greeting, a form's question, a broken sentence's rest or the
 * machine's sections. Each rule comes from issue 35's blind readings of such quotes and holds in any tracker. Pure.
 */
import { KIND_NAMED_RE } from "./ask-patterns.js";
import type { AuthorSentence } from "./segments.js";

/** A sentence without its inline code: a term in code (`import cv2`) is never the author's word for an area. */
export const withoutCode = (text: string) => text.replace(/`[^`]*`/g, (m) => " ".repeat(m.length));

/** A sentence that stops on a word that needs more after it: a lead-in to what was pasted below it. */
const RUNS_ON_RE =
  /\b(?:in|with|to|of|for|and|or|but|the|a|an|as|at|by|from|into|like|is|are|was|were|be|this|that|these|following|below|then)\s*$/i;
/** A form's field with its short answer; the field may carry its hint ("TensorFlow library (version, if pip …): 2.14"). */
const FIELD_ANSWER_RE = /^[^.!?:]{1,100}:\s*\S+(?:\s+\S+){0,4}\s*$/;
/**
 * A line of a log or of code pasted without a fence ("Node:'model/model0_bn_1/FuseBatchNormV3' scale must …"): a
 * quoted path of three parts or more, "::", braces, an assignment or a statement's ";".
 */
const CODE_LIKE_RE = /[{}]|;\s*$|\s=\s|::|['"]\w[\w.-]*\/[\w.-]+\/[\w.-]+['"]/;
/** A field and its value ("OS: Windows 11"): two or more of them in one sentence are a form's list, not prose. */
const FIELD_RE = /(?:^|\s)[\p{L}][\p{L}\d &/().-]{0,30}:\s+\S/gu;
export function fieldList(text: string): boolean {
  if (!text.includes(":")) return false;
  let n = 0;
  FIELD_RE.lastIndex = 0;
  while (FIELD_RE.exec(text)) if (++n >= 2) return true;
  return false;
}
/**
 * The sections of a form that hold the machine's words, not the author's account: the environment, versions, logs
 * and output, screenshots, a checklist. Their lines name no area of the task and are no one's lens sentence.
 */
const MACHINE_SECTION_RE =
  /\b(?:environment|versions?|system|platform|logs?|(?:log|console|terminal|error|command|build|relevant) output|trace\w*|screenshots?|checklist|pull request)\b/;

/**
 * A section of the machine's words: a short heading (a label, not a form's long question such as "Which versions of
 * React, and which browser / OS are affected by this issue? …", under which authors write their account).
 */
function machineSection(section: string): boolean {
  return section.length <= 40 && MACHINE_SECTION_RE.test(section);
}

/**
 * A sentence of the author's account: not a lead-in to what was pasted below it ("… results in", "… as follows:"),
 * a form's list of fields, nor a line of a log or of code.
 */
export function accountLine(text: string): boolean {
  return (
    !/[:,;]\s*$/.test(text) &&
    !RUNS_ON_RE.test(text) &&
    !fieldList(text) &&
    !CODE_LIKE_RE.test(withoutCode(text))
  );
}

/** The author's sentences, without a form's lists of fields ("OpenCV version: 4.7.0 OS: Windows 11 …"). */
export function accountOf(sentences: readonly AuthorSentence[]): readonly AuthorSentence[] {
  return sentences.some((s) => fieldList(s.text)) ? sentences.filter((s) => !fieldList(s.text)) : sentences;
}

/**
 * Sentences a persona with nothing of its own does not quote, read as a maintainer would (issue 35's blind reading
 * of such quotes): a greeting or thanks, a form's option chosen ("Yes, I am willing to help …"), a question put to
 * the reporter by a form ("Do you want to request a feature or report a bug?"), a form's question with its answer
 * after it, a sentence cut by a link taken out ("…"), or one that opens on markup.
 */
const NOT_WORTH_RE =
  /^(?:hi|hello|hey|dear|greetings|good (?:morning|afternoon|evening)|thanks?|thank you|cheers|yes|no|sorry|apologies|i(?:'m| am) (?:very |so |really )?sorry)\b|\b(?:do|did|does|would|will|have|has|are|can|could|should) you\b[^.!]*\?|\?\s*\S|…|^[_*`]/i;

/** The rest of a sentence broken by a line or a list ("to the further left side"): it opens on a joining word. */
const FRAGMENT_RE = /^(?:to|and|or|but|with|for|of|in|on|at|by|from|as|so|then|which|that)\s/;

/** A form's field with its short answer ("OS: Windows 11"): the form's words, no one's lens sentence. */
export const fieldAnswer = (text: string) => FIELD_ANSWER_RE.test(text);

/** Whether a persona with nothing of its own may quote this sentence as the author's (beside its not being quoted yet). */
export function quotableAlone(s: AuthorSentence): boolean {
  return (
    !FIELD_ANSWER_RE.test(s.text) &&
    !NOT_WORTH_RE.test(s.text) &&
    !KIND_NAMED_RE.test(s.text) &&
    !FRAGMENT_RE.test(s.text) &&
    !machineSection(s.section) &&
    accountLine(s.text)
  );
}
