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
    0.148528, 0.023134, 0.136567, 0.05205, 0.255915, 1.053714, 0.397608, 0.166535, 0.189143, 0.034175,
    0.155494, 0.235016, 0.040221, 0.044427, 0.039301, 2.713172, 0.073344, 0.254367, 0.059674, 0.005126,
    0.001314, 0.051788, 0.193875, 0.307834, 0.138538, 0.011304, 1.674667, 0.019322, 0.085699, 0.004469,
    0.000526, 0.000263,
  ],
  scale: [
    0.355622, 0.150328, 0.343389, 0.222129, 0.436374, 0.811242, 0.489404, 0.37256, 0.391622, 0.181677,
    0.362375, 0.424009, 0.196477, 0.206042, 0.19431, 0.547701, 0.2607, 0.2837, 0.236882, 0.071414, 0.036231,
    0.221598, 0.395332, 0.461597, 0.345464, 0.105717, 0.772666, 0.137653, 0.279919, 0.066701, 0.022923,
    0.016211,
  ],
  weights: [
    0.121017, 0.076182, -0.272373, -0.103443, -0.182387, -0.069348, 0.153139, 0.280783, 0.193331, 0.126796,
    0.080632, 0.190028, 0.184583, 0.148511, -0.123604, 0.203836, -0.149423, 0.639255, 0.013911, -0.062937,
    -0.17827, -0.244382, 0.251194, 0.33356, 0.005767, -0.055191, -0.567175, -0.075607, -0.116933, -0.062595,
    -0.064654, -0.068398,
  ],
  intercept: -0.941081,
  bar: 1.085447,
  trainedOn: 1952,
};
