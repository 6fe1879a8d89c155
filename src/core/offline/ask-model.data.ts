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
  ],
  mean: [
    0.22324, 0.043217, 0.19834, 0.072696, 0.227533, 1.195473, 0.360332, 0.665713, 0.16142, 0.169433, 0.051803,
    0.174013, 0.215226, 0.026331, 0.067544, 0.048082, 0.055238, 0.130223, 0.214367, 2.719727, 0.078993,
    0.237548, 0.067544, 0.004007, 0.001717, 0.154551, 0.070693, 0.007441, 0.115341, 0.08672, 0.176588,
    0.054093, 0.281339, 0.162278, 0.093875, 0.01889, 0.016314, 1.850728, 0.03692, 0.103034, 0.002862,
    0.000859,
  ],
  scale: [
    0.416418, 0.203345, 0.39875, 0.259637, 0.419239, 0.89949, 0.480097, 0.471741, 0.367918, 0.375134,
    0.221629, 0.37912, 0.410979, 0.160117, 0.250962, 0.21394, 0.228443, 0.336549, 0.410383, 0.575006,
    0.269727, 0.284044, 0.250962, 0.063173, 0.041404, 0.361476, 0.256311, 0.085942, 0.319433, 0.281424,
    0.38132, 0.226201, 0.449653, 0.368706, 0.291655, 0.136135, 0.126679, 0.860889, 0.188566, 0.304003,
    0.053422, 0.02929,
  ],
  weights: [
    0.183022, 0.114182, -0.267451, -0.1237, -0.217706, -0.23222, 0.094367, 0.003271, 0.109009, 0.111844,
    0.159897, 0.156253, 0.175217, -0.008882, 0.168589, -0.139243, 0.01359, 0.043433, 0.073965, 0.250122,
    -0.187605, 0.602293, 0.036538, -0.027929, -0.106983, 0.002784, -0.195884, -0.104014, -0.077107, 0.056309,
    0.312734, 0.013118, 0.32339, -0.052398, 0.016853, -0.051268, -0.075398, -0.488008, -0.09788, -0.116176,
    -0.066344, -0.111904,
  ],
  intercept: -1.238899,
  bar: -0.041171,
  trainedOn: 800,
};
