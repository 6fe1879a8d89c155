/** The ask ranker's fitted weights: written by `npm run fit:ask` (scripts/eval/fit-ask.ts); do not edit by hand. */
export interface AskModel {
  features: readonly string[];
  mean: readonly number[];
  scale: readonly number[];
  weights: readonly number[];
  intercept: number;
  /** The logit a candidate must reach to be shown; below it the ask is null. */
  bar: number;
  trainedOn: number;
}

export const ASK_MODEL: AskModel = {
  features: [
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
  ],
  mean: [
    0.240578, 0.037905, 0.214505, 0.077344, 0.233786, 1.13317, 0.365688, 0.156004, 0.172875, 0.051928,
    0.168054, 0.218011, 0.028703, 0.066608, 0.051928, 2.705616, 0.084137, 0.23582, 0.068361, 0.005916,
    0.001315, 0.068799, 0.177476, 0.277388, 0.165863, 0.015337, 1.779127, 0.032209, 0.097502, 0.004163,
    0.000657, 0.000876,
  ],
  scale: [
    0.427435, 0.190967, 0.410478, 0.267137, 0.423238, 0.834116, 0.481623, 0.362859, 0.378139, 0.221882,
    0.373915, 0.412895, 0.16697, 0.249342, 0.221882, 0.570936, 0.277593, 0.282932, 0.252365, 0.076687,
    0.036234, 0.253113, 0.382071, 0.44771, 0.371958, 0.122891, 0.780107, 0.176554, 0.29664, 0.064387, 0.02563,
    0.029591,
  ],
  weights: [
    0.189721, 0.12684, -0.314678, -0.081789, -0.267094, -0.206645, 0.102388, 0.165125, 0.216535, 0.181898,
    0.158769, 0.184636, 0.024257, 0.168994, -0.172335, 0.283145, -0.214351, 0.710764, 0.05951, -0.068054,
    -0.175345, -0.239735, 0.289997, 0.309281, -0.056417, -0.088341, -0.50526, -0.114191, -0.134283, -0.014945,
    -0.162217, -0.029051,
  ],
  intercept: -1.278141,
  bar: 1.024679,
  trainedOn: 1072,
};
