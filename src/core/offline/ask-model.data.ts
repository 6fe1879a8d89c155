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
    0.148528, 0.023134, 0.136567, 0.05205, 0.255915, 1.053714, 0.397608, 0.165747, 0.189274, 0.034175,
    0.154706, 0.235016, 0.040221, 0.044427, 0.039301, 2.713172, 0.073344, 0.254367, 0.059674, 0.005126,
    0.001052, 0.051788, 0.193743, 0.307834, 0.138538, 0.011304, 1.674667, 0.019322, 0.085699, 0.004469,
    0.000526, 0.000657,
  ],
  scale: [
    0.355622, 0.150328, 0.343389, 0.222129, 0.436374, 0.811242, 0.489404, 0.371853, 0.391726, 0.181677,
    0.361624, 0.424009, 0.196477, 0.206042, 0.19431, 0.547701, 0.2607, 0.2837, 0.236882, 0.071414, 0.03241,
    0.221598, 0.39523, 0.461597, 0.345464, 0.105717, 0.772666, 0.137653, 0.279919, 0.066701, 0.022923,
    0.025628,
  ],
  weights: [
    0.120361, 0.075895, -0.273014, -0.103908, -0.18316, -0.068751, 0.15367, 0.276945, 0.19605, 0.126663,
    0.079899, 0.186458, 0.185656, 0.148332, -0.124033, 0.204477, -0.149959, 0.638785, 0.014052, -0.062887,
    -0.165052, -0.244523, 0.251939, 0.334468, 0.005797, -0.055313, -0.567651, -0.075263, -0.117352, -0.062441,
    -0.064491, -0.027688,
  ],
  intercept: -0.939185,
  bar: 1.087037,
  trainedOn: 1952,
};
