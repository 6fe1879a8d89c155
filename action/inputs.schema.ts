import { z } from "zod";
import { ApprovalPolicySchema, type ApprovalPolicy } from "../src/core/approval.js";
import { DESCRIPTION_MAX_CHARS, TASK_MAX_CHARS, codePointLength } from "../src/core/task-request.schema.js";
import type { ScorerSettings } from "../src/llm/create-scorer.js";
import { ActionError } from "./errors.js";
import { OUTPUTS, type Output } from "../src/repo-config/repo-config.schema.js";

/**
 * Every input of the Action, by the name `action.yml` gives it. The runner passes each one as the
 * environment variable `INPUT_<NAME>` (upper-cased, hyphens kept), and `core.getInput` returns `""`
 * for an input that is absent, so an empty string always means "not set: use the default".
 */
export const INPUT_NAMES = [
  "task",
  "description",
  "github-token",
  "comment",
  "output",
  "label-approved",
  "label-rejected",
  "fail-on-reject",
  "min-average",
  "min-score",
  "min-supporters",
  "support-score",
  "scorer",
  "openai-api-key",
  "openai-base-url",
  "model",
] as const;

export type InputName = (typeof INPUT_NAMES)[number];
export type RawInputs = Record<InputName, string>;

/** GitHub's limit for a label name. */
export const LABEL_MAX_CHARS = 50;

const text = z.string().default("");

/** Empty means absent; otherwise the runner's YAML 1.2 booleans, as `core.getBooleanInput` accepts them. */
function boolean(defaultValue: boolean) {
  return z
    .string()
    .default("")
    .transform((s, ctx) => {
      if (s === "") return defaultValue;
      if (["true", "True", "TRUE"].includes(s)) return true;
      if (["false", "False", "FALSE"].includes(s)) return false;
      ctx.addIssue({ code: "custom", message: `must be \`true\` or \`false\`, got "${s}"` });
      return z.NEVER;
    });
}

/** Empty means "not set" (undefined), so the repository's file can decide; else as `boolean`. */
const optionalBoolean = z
  .string()
  .default("")
  .transform((s, ctx) => {
    if (s === "") return undefined;
    if (["true", "True", "TRUE"].includes(s)) return true;
    if (["false", "False", "FALSE"].includes(s)) return false;
    ctx.addIssue({ code: "custom", message: `must be \`true\` or \`false\`, got "${s}"` });
    return z.NEVER;
  });

/** Empty means absent (the core's default applies); anything else must be a finite number. */
const number = z
  .string()
  .default("")
  .transform((s, ctx) => {
    if (s === "") return undefined;
    const n = Number(s);
    if (!Number.isFinite(n)) {
      ctx.addIssue({ code: "custom", message: `must be a number, got "${s}"` });
      return z.NEVER;
    }
    return n;
  });

const optional = z
  .string()
  .default("")
  .transform((s) => (s === "" ? undefined : s));

const label = optional.refine((s) => s === undefined || codePointLength(s) <= LABEL_MAX_CHARS, {
  message: `must be at most ${LABEL_MAX_CHARS} characters (GitHub's limit for a label name)`,
});

/**
 * The one schema for the Action's inputs: raw strings in (keyed by input name, so every error names
 * the input a person has to fix), typed settings out. The approval thresholds reuse the core's own
 * policy rules, and `task`/`description` the request limits; nothing here scores or approves.
 */
export const ActionInputsSchema = z
  .object({
    task: text.refine((s) => codePointLength(s) <= TASK_MAX_CHARS, {
      message: `must be at most ${TASK_MAX_CHARS} characters (GitHub's limit for an issue title)`,
    }),
    description: text.refine((s) => codePointLength(s) <= DESCRIPTION_MAX_CHARS, {
      message: `must be at most ${DESCRIPTION_MAX_CHARS} characters (GitHub's limit for an issue body)`,
    }),
    "github-token": optional,
    comment: optionalBoolean,
    output: z
      .string()
      .default("")
      .transform((s, ctx) => {
        if (s === "") return undefined;
        const words = s.split(/[\s,]+/).filter(Boolean);
        if (words.length === 1 && words[0] === "none") return [] as Output[];
        const bad = words.filter((w) => !(OUTPUTS as readonly string[]).includes(w));
        if (bad.length > 0 || words.length === 0) {
          ctx.addIssue({
            code: "custom",
            message: `must list ${OUTPUTS.join(", ")} (separated by commas or spaces), or be \`none\`; got "${s}"`,
          });
          return z.NEVER;
        }
        return [...new Set(words)] as Output[];
      }),
    "label-approved": label,
    "label-rejected": label,
    "fail-on-reject": boolean(false),
    "min-average": number.pipe(ApprovalPolicySchema.shape.minAverage),
    "min-score": number.pipe(ApprovalPolicySchema.shape.minScore),
    "min-supporters": number.pipe(ApprovalPolicySchema.shape.minSupporters),
    "support-score": number.pipe(ApprovalPolicySchema.shape.supportScore),
    scorer: z
      .string()
      .default("")
      .transform((s) => (s === "" ? "auto" : s))
      .pipe(z.enum(["auto", "offline", "openai"], { error: "must be `auto`, `offline` or `openai`" })),
    "openai-api-key": optional,
    "openai-base-url": optional.refine((s) => s === undefined || /^https?:\/\/[^\s]+$/i.test(s), {
      message: "must be an http(s) URL, e.g. https://api.openai.com/v1",
    }),
    model: optional,
  })
  .superRefine((raw, ctx) => {
    if (raw.scorer === "openai" && !raw["openai-api-key"]) {
      ctx.addIssue({
        code: "custom",
        path: ["openai-api-key"],
        message:
          "is required when `scorer` is `openai`: pass `openai-api-key: ${{ secrets.OPENAI_API_KEY }}`, or use `scorer: offline`",
      });
    }
    const approved = raw["label-approved"];
    if (approved !== undefined && approved === raw["label-rejected"]) {
      ctx.addIssue({
        code: "custom",
        path: ["label-rejected"],
        message: "must differ from `label-approved`",
      });
    }
  })
  .transform((raw) => {
    const policy: ApprovalPolicy = {
      minAverage: raw["min-average"],
      minScore: raw["min-score"],
      minSupporters: raw["min-supporters"],
      supportScore: raw["support-score"],
    };
    const scorer: ScorerSettings = {
      scorer: raw.scorer,
      openaiApiKey: raw["openai-api-key"],
      openaiBaseUrl: raw["openai-base-url"],
      model: raw.model,
    };
    return {
      task: raw.task,
      description: raw.description,
      githubToken: raw["github-token"],
      comment: raw.comment ?? true,
      /** Set explicitly in the step (not empty): wins over the repository's file. */
      commentInput: raw.comment,
      output: raw.output,
      labels: { approved: raw["label-approved"], rejected: raw["label-rejected"] },
      failOnReject: raw["fail-on-reject"],
      policy,
      scorer,
    };
  });

export type ActionInputs = z.output<typeof ActionInputsSchema>;

/** Plain words for the range checks the thresholds inherit from the core's policy schema. */
function numberMessage(issue: z.core.$ZodRawIssue): string | undefined {
  const got = typeof issue.input === "number" ? ` (got ${issue.input})` : "";
  if (issue.code === "too_big") return `must be at most ${String(issue.maximum)}${got}`;
  if (issue.code === "too_small") return `must be at least ${String(issue.minimum)}${got}`;
  if (issue.code === "invalid_type" && issue.expected === "int") return `must be a whole number${got}`;
  return undefined;
}

/** Turn zod issues into one sentence that names each input to fix. */
function describeIssues(error: z.ZodError): string {
  return error.issues
    .map((issue) => {
      const name = String(issue.path[0] ?? "input");
      return `\`${name}\` ${issue.message.replace(/^[A-Z]/, (c) => c.toLowerCase())}`;
    })
    .join("; ");
}

/**
 * Read and validate every input. `getInput` is `core.getInput`-shaped; values are trimmed (as the
 * runner's `getInput` does by default). Secrets are never echoed in error messages.
 */
export function parseInputs(getInput: (name: InputName) => string): ActionInputs {
  const raw = Object.fromEntries(INPUT_NAMES.map((name) => [name, getInput(name).trim()])) as RawInputs;
  const parsed = ActionInputsSchema.safeParse(raw, { error: numberMessage });
  if (!parsed.success) {
    throw new ActionError(
      "invalid_input",
      `Invalid input: ${describeIssues(parsed.error)}. Fix the step's \`with:\` block and run it again.`,
    );
  }
  return parsed.data;
}
