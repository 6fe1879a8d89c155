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
    0.149469, 0.023342, 0.135411, 0.051857, 0.257029, 1.049152, 0.400531, 0.166844, 0.188727, 0.03435,
    0.156233, 0.234881, 0.03992, 0.044562, 0.039655, 2.716367, 0.072149, 0.255043, 0.06008, 0.005172,
    0.001326, 0.052255, 0.19443, 0.308621, 0.13939, 0.011406, 1.66876, 0.019496, 0.085146, 0.004509, 0.000531,
    0.000265,
  ],
  scale: [
    0.356551, 0.150988, 0.342162, 0.221738, 0.436996, 0.80961, 0.490006, 0.372836, 0.391291, 0.182127,
    0.363076, 0.423924, 0.195772, 0.206341, 0.195148, 0.54718, 0.258734, 0.283842, 0.237634, 0.071733,
    0.036394, 0.22254, 0.395761, 0.461924, 0.346353, 0.106187, 0.77142, 0.13826, 0.279099, 0.067, 0.023027,
    0.016284,
  ],
  weights: [
    0.122378, 0.074075, -0.270267, -0.102315, -0.193309, -0.069289, 0.157291, 0.280564, 0.197461, 0.114444,
    0.081005, 0.183251, 0.185358, 0.159124, -0.125753, 0.204928, -0.150502, 0.642462, 0.01305, -0.062707,
    -0.212525, -0.246741, 0.254703, 0.329421, 0.00807, -0.056649, -0.571935, -0.072923, -0.113126, -0.066897,
    -0.064837, -0.079283,
  ],
  intercept: -0.935677,
  bar: 1.097461,
  trainedOn: 1952,
};
