/**
 * The ask's ranker: of the sentences that could be the ask (askCandidates), the one a reader would pick, by a
 * logistic model over what a sentence says and where it stands, fitted on readers' picks (scripts/eval/fit-ask.ts,
 * weights in ask-model.data.ts), or none where no sentence scores above the model's bar. Pure.
 *
 * Why learned: rules chose the first sentence with a cue ("error", "should", an imperative), and a maintainer's
 * readings found the chosen sentence was scene-setting ("I was building the docs when …"), a cause or a step in
 * most of the reports they marked false; each rule added for one shape missed the next sample's.
 */
import { askSignals, type AskCandidate } from "./ask-sentences.js";
import { ASK_MODEL, type AskModel } from "./ask-model.data.js";
import { demandIn } from "./evidence-patterns.js";
import { countWords } from "./markdown-lines.js";

/** Scene-setting in the first person: what the author uses, has or was doing. */
const SCENE_RE =
  /^(?:so\s+|and\s+|but\s+)?(?:i|we)(?:'m|’m|'ve|’ve| am| are| was| were| have| had| recently| currently| just)?\s+(?:using|use|used|running|run|ran|trying|tried|installed|install|working|built|building|have|had|got|noticed|found|came|started|been|wanted|upgraded|updated|deployed|created|wrote|made|set)\b/i;
/** What a request is good for ("useful when verifying …", "needed for offline use"): the why, not the ask. */
const MOTIVATION_RE =
  /\b(?:useful|helpful|handy|needed|necessary|important|valuable|beneficial)\s+(?:e\.g\.|for|when|whenever|if|so|so that|in (?:cases?|situations?)|because|since|to (?:those|people|users|anyone))\b/i;
const STOP = new Set(
  "the a an and or of to in on for with is are be it this that not no can how when why what from by as at use using does do issue bug feature request add support error".split(
    " ",
  ),
);

/**
 * Each word of a text as the ranker compares it with the title: its first five letters ("drafts" and "draft",
 * "crashes" and "crash" are one word), common words left out; Chinese and Japanese, which have no spaces, as pairs
 * of characters.
 */
function eachWord(text: string, visit: (key: string) => void): void {
  for (const w of text.toLowerCase().match(/[\p{L}\p{N}]{3,}/gu) ?? [])
    if (!STOP.has(w)) visit(w.slice(0, 5));
  if (!CJK_RE.test(text)) return;
  for (const run of text.match(CJK_RUN_RE) ?? [])
    for (let i = 0; i + 1 < run.length; i++) visit(run.slice(i, i + 2));
}

/** How many of the title's words a sentence holds, each once. */
function sharedWords(text: string, title: ReadonlySet<string>): number {
  if (title.size === 0) return 0;
  let seen: Set<string> | undefined;
  eachWord(text, (k) => {
    if (title.has(k)) (seen ??= new Set()).add(k);
  });
  return seen?.size ?? 0;
}

const CJK_RUN_RE = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]{2,}/gu;
const CJK_RE = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/u;

/** The features' names, in the order askFeatures writes them (the model's data names them too). */
export const ASK_FEATURES = [
  "section_ask",
  "section_expected",
  "section_other",
  "step",
  "first",
  "log_order",
  "first_paragraph",
  "cue_request",
  "cue_problem",
  "cue_question",
  "request_words",
  "problem_words",
  "imperative",
  "ends_question",
  "scene",
  "log_words",
  "short",
  "title_overlap",
  "lead_in",
  "cause",
  "pointer",
  "link",
  "first_cue",
  "most_title_overlap",
  "opener_i",
  "narrative",
  "log_candidates",
  "expected_beside_ask",
  "section_named",
  "motivation",
  "edit_note",
  "demand",
] as const;

/** The features of every candidate, one row each, in ASK_FEATURES' order. */
export function askFeatures(title: string, cands: readonly AskCandidate[]): number[][] {
  const titleWords = new Set<string>();
  eachWord(title, (k) => titleWords.add(k));
  const signals = cands.map((c) => askSignals(c.text, c.step));
  const cues = signals.map((x) => x.cue);
  const firstCue = cues.findIndex((q) => q !== null);
  const overlaps = cands.map((c) => sharedWords(c.text, titleWords));
  const most = Math.max(...overlaps);
  // Under "expected" beside a section that announces the ask: the expectation is the second statement.
  const hasAsk = cands.some((c) => c.section === "ask");
  return cands.map((c, i) => {
    const t = c.text;
    const head = t.length > 400 ? t.slice(0, 400) : t;
    const overlap = overlaps[i]!;
    const sig = signals[i]!;
    const n = countWords(t);
    return [
      c.section === "ask" ? 1 : 0,
      c.section === "expected" ? 1 : 0,
      c.section === "other" ? 1 : 0,
      c.step ? 1 : 0,
      i === 0 ? 1 : 0,
      Math.log1p(i),
      c.paragraph === 0 ? 1 : 0,
      cues[i] === "request" ? 1 : 0,
      cues[i] === "problem" ? 1 : 0,
      cues[i] === "question" ? 1 : 0,
      sig.request ? 1 : 0,
      sig.problem ? 1 : 0,
      sig.imperative ? 1 : 0,
      /[?？]\s*$/.test(t) ? 1 : 0,
      SCENE_RE.test(t) ? 1 : 0,
      Math.log1p(n),
      n < 6 ? 1 : 0,
      titleWords.size ? overlap / titleWords.size : 0,
      sig.leadIn ? 1 : 0,
      sig.cause ? 1 : 0,
      sig.pointer ? 1 : 0,
      /https?:\/\/|\]\(/.test(t) ? 1 : 0,
      i === firstCue ? 1 : 0,
      overlap > 0 && overlap === most ? 1 : 0,
      /^(?:i|we|my|our)\b/i.test(t) ? 1 : 0,
      /^(?:i|we)\b/i.test(t) && (head.match(/\b\w{3,}ed\b/g)?.length ?? 0) >= 2 ? 1 : 0,
      Math.log(cands.length),
      c.section === "expected" && hasAsk ? 1 : 0,
      c.section === "named" ? 1 : 0,
      MOTIVATION_RE.test(head) ? 1 : 0,
      /^\W*(?:edit(?:ed)?|update[ds]?|upd|p\.?s\.?|note|n\.b\.?)\b\s*[:\-–—(]/i.test(t) ? 1 : 0,
      // A count of who asks ("Twelve customers asked for it") is why the task matters, said beside the ask.
      demandIn(head) ? 1 : 0,
    ];
  });
}

/** Each model's weights in the features' own units and its intercept with the means folded in: made once per model. */
const COEFFICIENTS = new WeakMap<AskModel, { w: Float64Array; b: number }>();

function coefficients(model: AskModel): { w: Float64Array; b: number } {
  let c = COEFFICIENTS.get(model);
  if (!c) {
    const w = new Float64Array(model.weights.length);
    let b = model.intercept;
    for (let j = 0; j < w.length; j++) {
      w[j] = model.weights[j]! / model.scale[j]!;
      b -= w[j]! * model.mean[j]!;
    }
    c = { w, b };
    COEFFICIENTS.set(model, c);
  }
  return c;
}

/** A row's logit under a model (features standardised by the model's mean and scale). */
export function askLogit(model: AskModel, x: readonly number[]): number {
  const { w, b } = coefficients(model);
  let z = b;
  for (let j = 0; j < x.length; j++) z += w[j]! * x[j]!;
  return z;
}

/** The candidate a reader would pick, or -1 where none scores above the model's bar. */
export function rankAsk(title: string, cands: readonly AskCandidate[], model: AskModel = ASK_MODEL): number {
  if (cands.length === 0) return -1;
  const rows = askFeatures(title, cands);
  let best = -1;
  let top = -Infinity;
  for (const [i, x] of rows.entries()) {
    const z = askLogit(model, x);
    if (z > top) {
      top = z;
      best = i;
    }
  }
  return top >= model.bar ? best : -1;
}
