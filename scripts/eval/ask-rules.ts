/**
 * The ask as rules chose it before the ranker (ask-rank.ts): kept as the baseline fit-ask.ts measures the ranker
 * against, not used by the service.
 */
import { CAUSE_RE, LEAD_IN_RE } from "../../src/core/offline/ask-patterns.js";
import { askCue, SUBORDINATE_RE, type AskCandidate } from "../../src/core/offline/ask-sentences.js";
import { countWords } from "../../src/core/offline/markdown-lines.js";

/** A markdown link inside a sentence. */
const LINKED_RE = /\]\([^)\s[\]]{1,2000}\)/;

/**
 * The rules' choice among the candidates. Under a heading that announces the ask: its first sentence with a cue,
 * or else its first sentence (the heading says what it is); elsewhere, the first sentence with a cue. Never under
 * "expected behaviour": what the author expects is not the problem reported (of the asks found there,
 * maintainers' readings took 2 of 2 for false and ask-eval 1 of 3), nor under a heading for something else.
 */
export function ruleChoice(cands: readonly AskCandidate[]): number {
  let underAsk = -1;
  let withCue = -1;
  for (const [i, c] of cands.entries()) {
    if (c.section === "other" || c.section === "expected") continue;
    if (c.section !== "ask" && withCue >= 0) continue;
    if (askCue(c.text, c.step) !== null) {
      if (c.section === "ask") return i;
      withCue = i;
      continue;
    }
    if (
      c.section === "ask" &&
      underAsk < 0 &&
      countWords(c.text) >= 6 &&
      !LEAD_IN_RE.test(c.text) &&
      !CAUSE_RE.test(c.text) &&
      !LINKED_RE.test(c.text) &&
      !SUBORDINATE_RE.test(c.text)
    )
      underAsk = i;
  }
  return underAsk >= 0 ? underAsk : withCue;
}
