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
  ],
  mean: [
    0.22324, 0.043217, 0.19834, 0.072696, 0.227533, 1.195473, 0.360332, 0.665713, 0.16142, 0.169433, 0.051803,
    0.174013, 0.215226, 0.026331, 0.067544, 0.048082, 0.055238, 0.130223, 0.214367, 2.719727, 0.078993,
    0.237548, 0.067544, 0.004007, 0.001717, 0.154551, 0.070693, 0.007441, 0.115341, 0.08672, 0.176588,
    0.054093, 0.281339, 0.162278, 0.093875, 0.01889, 0.016314, 1.850728, 0.03692,
  ],
  scale: [
    0.416418, 0.203345, 0.39875, 0.259637, 0.419239, 0.89949, 0.480097, 0.471741, 0.367918, 0.375134,
    0.221629, 0.37912, 0.410979, 0.160117, 0.250962, 0.21394, 0.228443, 0.336549, 0.410383, 0.575006,
    0.269727, 0.284044, 0.250962, 0.063173, 0.041404, 0.361476, 0.256311, 0.085942, 0.319433, 0.281424,
    0.38132, 0.226201, 0.449653, 0.368706, 0.291655, 0.136135, 0.126679, 0.860889, 0.188566,
  ],
  weights: [
    0.229761, 0.186838, -0.256812, -0.132345, -0.287957, -0.277654, 0.121704, 0.009363, 0.107517, 0.119071,
    0.162005, 0.150679, 0.181237, -0.022071, 0.178504, -0.157561, 0.011474, 0.039803, 0.069808, 0.276159,
    -0.201844, 0.654483, 0.043201, -0.030689, -0.182835, -0.006273, -0.216214, -0.112883, -0.087526, 0.058098,
    0.340537, -0.008761, 0.308822, -0.046456, 0.010902, -0.05393, -0.082676, -0.536042, -0.149364,
  ],
  intercept: -1.274396,
  bar: 0.410928,
  trainedOn: 800,
};
