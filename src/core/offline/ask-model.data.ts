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
    0.188537, 0.028993, 0.16608, 0.061505, 0.245852, 1.092013, 0.3878, 0.160382, 0.183844, 0.041562, 0.159377,
    0.229429, 0.035026, 0.054131, 0.044579, 2.711317, 0.078264, 0.245815, 0.062846, 0.005866, 0.001173,
    0.058153, 0.186693, 0.294285, 0.150997, 0.012569, 1.724538, 0.024635, 0.094352, 0.00486, 0.000503,
    0.00067,
  ],
  scale: [
    0.39114, 0.167786, 0.372153, 0.240254, 0.430591, 0.824687, 0.487248, 0.36696, 0.387357, 0.199586,
    0.366027, 0.420465, 0.183845, 0.226276, 0.206377, 0.557447, 0.268586, 0.282729, 0.242685, 0.076362,
    0.034231, 0.234033, 0.389665, 0.455721, 0.358046, 0.111405, 0.780939, 0.155012, 0.292318, 0.069545,
    0.022417, 0.025883,
  ],
  weights: [
    0.160456, 0.113895, -0.299691, -0.094204, -0.192855, -0.125175, 0.116667, 0.292485, 0.176776, 0.176209,
    0.034932, 0.218028, 0.093043, 0.165615, -0.12788, 0.261166, -0.223871, 0.66093, 0.009842, -0.068107,
    -0.199185, -0.247372, 0.283168, 0.345343, -0.028718, -0.078971, -0.547689, -0.101153, -0.123825,
    -0.059095, -0.170341, -0.021664,
  ],
  intercept: -1.137632,
  bar: 1.011837,
  trainedOn: 1472,
};
