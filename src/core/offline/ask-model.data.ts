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
    "paragraph_start",
    "cue_request",
    "cue_problem",
    "cue_question",
    "request_words",
    "problem_words",
    "imperative",
    "ends_question",
    "scene",
    "when_clause",
    "modal",
    "negation",
    "log_words",
    "short",
    "title_overlap",
    "lead_in",
    "cause",
    "pointer",
    "inline_code",
    "link",
    "thanks",
    "version",
    "want_words",
    "first_cue",
    "first_cue_in_ask",
    "most_title_overlap",
    "opener_i",
    "opener_it",
    "currently",
    "narrative",
    "log_candidates",
    "expected_beside_ask",
    "section_named",
    "motivation",
    "edit_note",
    "demand",
  ],
  mean: [
    0.237963, 0.040231, 0.214851, 0.07768, 0.228333, 1.183191, 0.357158, 0.672373, 0.155575, 0.173978,
    0.052429, 0.167344, 0.220201, 0.027819, 0.066981, 0.051145, 0.056067, 0.123475, 0.208645, 2.70728,
    0.083244, 0.232952, 0.067409, 0.005778, 0.001284, 0.153007, 0.067837, 0.006206, 0.118981, 0.084528,
    0.173336, 0.056495, 0.27263, 0.163706, 0.09373, 0.019046, 0.015194, 1.836953, 0.034667, 0.101862,
    0.004066, 0.000642, 0.00107,
  ],
  scale: [
    0.425836, 0.196501, 0.410719, 0.267668, 0.419758, 0.886039, 0.479162, 0.469348, 0.362452, 0.379091,
    0.22289, 0.373283, 0.414382, 0.164455, 0.249988, 0.220293, 0.230051, 0.328982, 0.40634, 0.57162, 0.276251,
    0.281679, 0.250728, 0.075792, 0.03581, 0.359994, 0.251465, 0.078532, 0.323767, 0.278178, 0.378538,
    0.230875, 0.445312, 0.370009, 0.291453, 0.136685, 0.122323, 0.843723, 0.182936, 0.302466, 0.063635,
    0.025329, 0.032693,
  ],
  weights: [
    0.169595, 0.0866, -0.293187, -0.074834, -0.232817, -0.216538, 0.107206, 0.023371, 0.155629, 0.184853,
    0.175269, 0.139292, 0.162802, 0.023516, 0.164912, -0.149167, 0.039192, 0.048651, 0.079776, 0.242583,
    -0.203726, 0.657419, 0.051743, -0.073718, -0.10088, 0.038815, -0.217227, -0.070914, -0.068064, 0.05788,
    0.262952, 0.04397, 0.312566, -0.055082, 0.0064, -0.064477, -0.079634, -0.497919, -0.078405, -0.139457,
    -0.024625, -0.104456, -0.052667,
  ],
  intercept: -1.304918,
  bar: 0.846782,
  trainedOn: 1072,
};
