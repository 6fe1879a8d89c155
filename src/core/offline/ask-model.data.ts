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
    0.22324, 0.043217, 0.19834, 0.072696, 0.227533, 1.195473, 0.360332, 0.665713, 0.16142, 0.169433, 0.051803,
    0.174013, 0.215226, 0.026331, 0.067544, 0.048082, 0.055238, 0.130223, 0.214367, 2.719727, 0.078993,
    0.237548, 0.067544, 0.004007, 0.001717, 0.154551, 0.070693, 0.007441, 0.115341, 0.08672, 0.176588,
    0.054093, 0.281339, 0.162278, 0.093875, 0.01889, 0.016314, 1.850728, 0.03692, 0.103034, 0.002862,
    0.000859, 0.000572,
  ],
  scale: [
    0.416418, 0.203345, 0.39875, 0.259637, 0.419239, 0.89949, 0.480097, 0.471741, 0.367918, 0.375134,
    0.221629, 0.37912, 0.410979, 0.160117, 0.250962, 0.21394, 0.228443, 0.336549, 0.410383, 0.575006,
    0.269727, 0.284044, 0.250962, 0.063173, 0.041404, 0.361476, 0.256311, 0.085942, 0.319433, 0.281424,
    0.38132, 0.226201, 0.449653, 0.368706, 0.291655, 0.136135, 0.126679, 0.860889, 0.188566, 0.304003,
    0.053422, 0.02929, 0.023918,
  ],
  weights: [
    0.184842, 0.114645, -0.266768, -0.123557, -0.220225, -0.227736, 0.094322, 0.003025, 0.109473, 0.112181,
    0.159744, 0.156423, 0.175617, -0.008824, 0.16876, -0.138947, 0.014429, 0.043174, 0.074799, 0.248769,
    -0.187884, 0.60094, 0.03712, -0.027757, -0.107225, 0.004126, -0.202224, -0.104125, -0.07595, 0.056938,
    0.314261, 0.012718, 0.326649, -0.051296, 0.01779, -0.050695, -0.074958, -0.493146, -0.097872, -0.115632,
    -0.066363, -0.112074, -1.465391,
  ],
  intercept: -1.27656,
  bar: -0.034793,
  trainedOn: 800,
};
