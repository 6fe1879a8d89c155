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
    0.240578, 0.037905, 0.214505, 0.077344, 0.233786, 1.13317, 0.365688, 0.156442, 0.172656, 0.051928,
    0.168493, 0.218011, 0.028703, 0.066608, 0.051928, 2.705616, 0.084137, 0.23582, 0.068361, 0.005916,
    0.001315, 0.068799, 0.177476, 0.277388, 0.165863, 0.015337, 1.779127, 0.032209, 0.097502, 0.004163,
    0.000657, 0.000876,
  ],
  scale: [
    0.427435, 0.190967, 0.410478, 0.267137, 0.423238, 0.834116, 0.481623, 0.363274, 0.377949, 0.221882,
    0.374303, 0.412895, 0.16697, 0.249342, 0.221882, 0.570936, 0.277593, 0.282932, 0.252365, 0.076687,
    0.036234, 0.253113, 0.382071, 0.44771, 0.371958, 0.122891, 0.780107, 0.176554, 0.29664, 0.064387, 0.02563,
    0.029591,
  ],
  weights: [
    0.189858, 0.126913, -0.314529, -0.081772, -0.267368, -0.20696, 0.102454, 0.164826, 0.215395, 0.181725,
    0.158886, 0.185381, 0.024354, 0.16908, -0.172367, 0.283341, -0.214233, 0.710824, 0.059365, -0.068065,
    -0.175338, -0.239758, 0.290264, 0.309223, -0.056393, -0.088341, -0.505201, -0.114151, -0.13415, -0.014914,
    -0.162235, -0.02905,
  ],
  intercept: -1.277983,
  bar: 1.023799,
  trainedOn: 1072,
};
