import { z } from "zod";
import { ApprovalPolicySchema, type ApprovalPolicy } from "../core/approval.js";
import { SIZE_BANDS, type SizeBand } from "../core/change/size-bands.js";
import { READING_KINDS } from "../core/reading.schema.js";
import { MAX_TITLE_PATTERN_CHARS, PatternTooComplexError, compileTitlePattern } from "./title-pattern.js";

/** Where a repository (or its organisation's `.github` repository, via `_extends`) configures the App. */
export const REPO_CONFIG_FILE = "task-scorer.yml";

const IssueTrigger = z.enum(["opened", "reopened", "edited"]);
const PullRequestTrigger = z.enum(["opened", "reopened", "ready_for_review", "edited"]);

const threshold = z.number().min(1).max(10);
const labelName = z
  .string()
  .max(50, "GitHub label names are at most 50 characters")
  .refine((s) => s.trim() === s, "must not start or end with spaces");

const TRUE_WORDS = new Set(["true", "yes", "on", "y"]);
const BOOLEAN_WORDS = /^(true|false|yes|no|on|off|y|n)$/i;

/**
 * The YAML parser reads `yes`, `no`, `on` and `off` as strings (YAML 1.2), but people write them
 * meaning booleans (YAML 1.1, GitHub Actions' own docs): accept the usual spellings in any case.
 */
const yamlBoolean = z
  .union([z.boolean(), z.string().regex(BOOLEAN_WORDS, "expected true/false, yes/no or on/off")], {
    error: "expected true/false, yes/no or on/off",
  })
  .transform((v) => (typeof v === "boolean" ? v : TRUE_WORDS.has(v.toLowerCase())));

/**
 * Limits on what one repository's file may ask of the shared process. The file is refused above
 * CONFIG_MAX_BYTES before it is parsed (a 5 MB list once ran a 256 MB heap out of memory); lists are
 * capped so that a file under that size still costs little per job.
 */
export const CONFIG_MAX_BYTES = 64 * 1024;
/**
 * Across one repository's configuration: the file, its organisation's `.github` file and its `_extends`
 * chain (each file also under CONFIG_MAX_BYTES). A chain of 5 MB files once ran the heap out of memory.
 */
export const CONFIG_MAX_FILES = 5;
export const CONFIG_MAX_TOTAL_BYTES = 128 * 1024;
export const MAX_SKIP_LABELS = 100;
export const MAX_TITLE_PATTERNS = 20;
const titlePattern = z
  .string()
  .max(MAX_TITLE_PATTERN_CHARS, `a pattern is at most ${MAX_TITLE_PATTERN_CHARS} characters`)
  .superRefine((s, ctx) => {
    if (s.length > MAX_TITLE_PATTERN_CHARS) return;
    try {
      compileTitlePattern(s);
    } catch (error) {
      ctx.addIssue({
        code: "custom",
        message:
          error instanceof PatternTooComplexError
            ? error.message
            : "is not a valid RE2 regular expression (lookarounds and backreferences are not supported)",
      });
    }
  });

/** Where a report can go besides the job summary: `output` lists them (or says `none`). */
export const OUTPUTS = ["comment", "labels", "project", "check"] as const;
export type Output = (typeof OUTPUTS)[number];

const outputList = z
  .union([z.enum([...OUTPUTS, "none"]), z.array(z.enum(OUTPUTS)).max(OUTPUTS.length)], {
    error: `expected a list drawn from ${OUTPUTS.join(", ")}, or none`,
  })
  .transform((v): Output[] => (v === "none" ? [] : typeof v === "string" ? [v] : [...new Set(v)]));

/** A Projects v2 board: https://HOST/orgs/ORG/projects/N or https://HOST/users/USER/projects/N (GHE hosts too). */
export const PROJECT_URL =
  /^https?:\/\/[^/\s]+\/(orgs|users)\/([A-Za-z0-9](?:[A-Za-z0-9-]{0,38}))\/projects\/(\d{1,9})(?:\/[^\s]*)?$/;

/** `size-labels: true`: the label of each size band a pull request's change falls in. */
export const DEFAULT_SIZE_LABELS: Readonly<Record<SizeBand, string>> = {
  XS: "size/XS",
  S: "size/S",
  M: "size/M",
  L: "size/L",
  XL: "size/XL",
};

/** `size-labels`: true, false, or the names by band (unnamed bands keep their default); five different names. */
const sizeLabels = z
  .union(
    [yamlBoolean, z.object(Object.fromEntries(SIZE_BANDS.map((b) => [b, labelName.optional()]))).strict()],
    { error: "expected true/false, or a mapping of XS, S, M, L and XL to label names" },
  )
  .transform((v): Readonly<Record<SizeBand, string>> | false =>
    v === false ? false : v === true ? DEFAULT_SIZE_LABELS : { ...DEFAULT_SIZE_LABELS, ...(v as object) },
  )
  .refine((v) => v === false || new Set(Object.values(v)).size === SIZE_BANDS.length, {
    message: "each size band needs a label of its own",
  });

/** `duplicate-label: true`: the label put on a new issue whose comment says "Possibly the same as" (issue 32). */
export const DEFAULT_DUPLICATE_LABEL = "possible-duplicate";

/** `duplicate-label`: true (the default name), false, or the label's name. */
const duplicateLabel = z
  .union([yamlBoolean, labelName.min(1, "a label needs a name")], {
    error: "expected true/false, or a label name",
  })
  .transform((v): string | false => (v === true ? DEFAULT_DUPLICATE_LABEL : v));

export const TRIGGER_MODES = ["always", "label", "command"] as const;
export type TriggerMode = (typeof TRIGGER_MODES)[number];

/**
 * `.github/task-scorer.yml`. Each top-level key is validated on its own: a bad key falls back to its
 * default, except keys that can silence the App, which fail closed (see FAIL_CLOSED).
 */
export const RepoConfigSchema = z
  .object({
    enabled: yamlBoolean
      .default(true)
      .describe("Set to false (or no/off) to turn the App off for this repository."),
    comment: yamlBoolean.default(true).describe("Post (and keep updating) the report comment."),
    "comment-style": z
      .enum(["compact", "full"])
      .default("compact")
      .describe(
        "compact: the persona table is folded in <details>; full: the table is shown open. Both show the score, the verdict and what would raise it.",
      ),
    trigger: z
      .enum(TRIGGER_MODES)
      .default("always")
      .describe(
        "always: score on the events in `triggers`; label: only issues and PRs carrying `trigger-label` (adding it scores); command: only on `/score`.",
      ),
    "trigger-label": labelName
      .default("task-scorer")
      .describe("With `trigger: label`, the label that asks for a score."),
    triggers: z
      .object({
        issues: z.array(IssueTrigger).max(10).default(["opened", "reopened", "edited"]),
        "pull-requests": z
          .array(PullRequestTrigger)
          .max(10)
          .default(["opened", "reopened", "ready_for_review", "edited"]),
        "score-command": yamlBoolean
          .default(true)
          .describe("Re-score on a `/score` comment from someone with write or triage access."),
      })
      .strict()
      .default({
        issues: ["opened", "reopened", "edited"],
        "pull-requests": ["opened", "reopened", "ready_for_review", "edited"],
        "score-command": true,
      })
      .describe("Which events score a task. Edits count only when the title or body changed."),
    drafts: z.enum(["skip", "score"]).default("skip").describe("Whether draft pull requests are scored."),
    approval: z
      .object({
        "min-average": threshold.optional(),
        "min-score": threshold.optional(),
        "min-supporters": z.number().int().min(0).max(5).optional(),
        "support-score": threshold.optional(),
      })
      .strict()
      .default({})
      .describe("Approval thresholds; unset ones keep the server's (defaults 7, 4, 3, 7)."),
    labels: z
      .object({
        approved: labelName.nullable().optional(),
        rejected: labelName.nullable().optional(),
        "needs-human": labelName
          .nullable()
          .optional()
          .describe(
            "Set on reports a person should decide (personas 4+ points apart, or the reader under 50% sure of the kind), removed when no longer so. Opt-in: e.g. needs-human.",
          ),
      })
      .strict()
      .default({})
      .describe(
        "Label names to set for the verdict and for `needs-human`; unset or null means no label. Created if missing.",
      ),
    "skip-labels": z
      .array(labelName)
      .max(MAX_SKIP_LABELS, `at most ${MAX_SKIP_LABELS} labels`)
      .default([])
      .describe("Issues or PRs carrying any of these labels are not scored; removing one scores."),
    "skip-title-patterns": z
      // The count is checked before any pattern is compiled.
      .array(z.string())
      .max(MAX_TITLE_PATTERNS, `at most ${MAX_TITLE_PATTERNS} patterns`)
      .pipe(z.array(titlePattern))
      .default([])
      .describe(
        "RE2 regular expressions (case-insensitive, linear time); a title matching any is not scored, e.g. '^wip\\b'.",
      ),
    "backlog-budget": z
      .number()
      .int()
      .min(0)
      .max(100_000)
      .default(200)
      .describe(
        "Under a model (LLM_PROVIDER), at most this many reports a day (UTC) for the silent backfill of this installation's open issues; 0 turns the model backfill off. The offline judge needs no budget.",
      ),
    output: outputList
      .optional()
      .describe(
        "Where the report goes: a list drawn from comment, labels, project and check, or none. Unset: the comment (unless `comment: false`) and the labels named under `labels`, as before. With `output` set, `comment: false` still means no comment.",
      ),
    "kind-labels": z
      .object(Object.fromEntries(READING_KINDS.map((k) => [k, labelName.nullable().optional()])))
      .strict()
      .default({})
      .describe(
        "With `output: [labels]`: the repository's label for each kind the reader finds (bug, feature, question, docs, refactor, chore, junk); null: never label that kind. Defaults: bug, enhancement, question.",
      ),
    "size-labels": sizeLabels
      .default(false)
      .describe(
        "Pull requests: exactly one size label from the change's size band (by lines changed outside generated files), moved when new commits change the band. true: size/XS, size/S, size/M, size/L, size/XL; or a mapping naming some of them, e.g. { XS: tiny, XL: huge }. Off by default; written whatever `output` lists.",
      ),
    "duplicate-label": duplicateLabel
      .default(false)
      .describe(
        'Issues: a label put on a new issue when its report comment says "Possibly the same as #N" (an earlier open or closed issue of this repository passes the duplicate bar). true: possible-duplicate; or the label\'s name. Only ever added: never removed, nothing closed, nothing written on the earlier issue. Off by default; written whatever `output` lists.',
      ),
    project: z
      .string()
      .regex(
        PROJECT_URL,
        "expected the URL of a Projects v2 board, e.g. https://github.com/orgs/ORG/projects/1",
      )
      .nullable()
      .optional()
      .describe(
        'With `output: [project]`: the Projects v2 board each scored issue or pull request is added to, with its score in the number field "Task score".',
      ),
  })
  .describe("task-scorer repository configuration (.github/task-scorer.yml)");

export type RepoConfig = z.output<typeof RepoConfigSchema>;
type RepoConfigKey = keyof RepoConfig;

/** A problem with the file, for the log (warn) and for maintainers (the reply to `/score`). */
export interface ConfigDiagnostic {
  /** The top-level key, when the problem is one key. */
  key?: string;
  message: string;
  /** 1-based, when known. */
  line?: number;
  column?: number;
}

export interface ParsedRepoConfig {
  config: RepoConfig;
  diagnostics: ConfigDiagnostic[];
  /** True when a key that can silence the App could not be read, so the App stays quiet. */
  failedClosed: boolean;
}

const DEFAULTS: RepoConfig = RepoConfigSchema.parse({});

/**
 * Keys whose unreadable value could make the App speak where a repository asked it not to. Falling
 * back to the default ("post everywhere") would fail open; instead they take the quiet value:
 * unreadable `enabled` turns the App off, `comment` stops comments, and the keys that narrow what is
 * scored leave only `/score` (so a maintainer can still ask, and the reply says what to fix).
 */
const FAIL_CLOSED: Partial<{ [K in RepoConfigKey]: RepoConfig[K] }> = {
  enabled: false,
  comment: false,
  trigger: "command",
  triggers: { issues: [], "pull-requests": [], "score-command": true },
  "skip-labels": [],
  "skip-title-patterns": [],
  // A budget the file meant to set but we cannot read is no licence to spend the default.
  "backlog-budget": 0,
  // An output list we cannot read writes nothing; kind labels we cannot name are not written.
  output: [],
  "kind-labels": Object.fromEntries(READING_KINDS.map((k) => [k, null])),
};
/** Keys whose failure also switches automatic scoring off (they list what must not be scored). */
const NARROWING_KEYS = new Set<string>(["skip-labels", "skip-title-patterns", "triggers"]);

/** The configuration used when the file itself cannot be read: the App stays quiet. */
export function failClosedConfig(): RepoConfig {
  return { ...DEFAULTS, enabled: false, comment: false, trigger: "command", output: [] };
}

export function parseRepoConfig(raw: unknown): ParsedRepoConfig {
  const diagnostics: ConfigDiagnostic[] = [];
  if (raw === null || raw === undefined) return { config: DEFAULTS, diagnostics, failedClosed: false };
  if (typeof raw !== "object" || Array.isArray(raw)) {
    return {
      config: failClosedConfig(),
      diagnostics: [{ message: "the file is not a mapping of keys; the App stays off until it is fixed" }],
      failedClosed: true,
    };
  }
  const shape = RepoConfigSchema.shape;
  const config: Record<string, unknown> = { ...DEFAULTS };
  let failedClosed = false;
  let narrowingFailed = false;
  for (const [key, value] of Object.entries(raw as Record<string, unknown>)) {
    if (key === "_extends") continue;
    const field = shape[key as keyof typeof shape];
    if (!field) {
      diagnostics.push({ key, message: `unknown key \`${key}\` ignored` });
      continue;
    }
    const parsed = field.safeParse(value);
    if (parsed.success) {
      config[key] = parsed.data;
      continue;
    }
    const why = parsed.error.issues
      .map((i) => (i.path.length ? `${i.path.join(".")}: ${i.message}` : i.message))
      .join("; ");
    if (key in FAIL_CLOSED) {
      failedClosed = true;
      config[key] = FAIL_CLOSED[key as RepoConfigKey];
      if (NARROWING_KEYS.has(key)) narrowingFailed = true;
      const effect =
        key === "enabled"
          ? "the App stays off"
          : key === "comment"
            ? "no comment is posted"
            : key === "output"
              ? "nothing is written on GitHub (as with `output: none`)"
              : key === "kind-labels"
                ? "no kind label is written"
                : "issues are scored only on `/score`";
      diagnostics.push({
        key,
        message: `\`${key}\` could not be read (${why}); ${effect} until it is fixed`,
      });
    } else {
      diagnostics.push({ key, message: `\`${key}\` ignored (${why}); the default is used` });
    }
  }
  // After the loop: a valid `trigger: always` must not undo a failed skip list.
  if (narrowingFailed) config.trigger = "command";
  diagnostics.push(...outputDiagnostics(config as RepoConfig));
  return { config: config as RepoConfig, diagnostics, failedClosed };
}

/** `output` and `project` must agree: a board without the output (or the output without a board) writes nothing. */
function outputDiagnostics(config: RepoConfig): ConfigDiagnostic[] {
  const listed = config.output?.includes("project") ?? false;
  if (listed && !config.project)
    return [
      {
        key: "output",
        message: "`output` lists `project` but `project` names no board; nothing is added to a project",
      },
    ];
  if (!listed && config.project)
    return [
      {
        key: "project",
        message: "`project` is set but `output` does not list `project`; nothing is added to the board",
      },
    ];
  return [];
}

/** "line 3, column 5: `enabled` could not be read (...)" */
export function formatDiagnostic(d: ConfigDiagnostic): string {
  const where = d.line !== undefined ? `line ${d.line}, column ${d.column ?? 1}: ` : "";
  return `.github/${REPO_CONFIG_FILE} ${where}${d.message}.`;
}

/** The repository's thresholds over the server's. */
export function repoApprovalPolicy(config: RepoConfig, base: ApprovalPolicy): ApprovalPolicy {
  const a = config.approval;
  return ApprovalPolicySchema.parse({
    minAverage: a["min-average"] ?? base.minAverage,
    minScore: a["min-score"] ?? base.minScore,
    minSupporters: a["min-supporters"] ?? base.minSupporters,
    supportScore: a["support-score"] ?? base.supportScore,
  });
}

/** JSON Schema for editors and docs, generated from the same zod schema. */
export function repoConfigJsonSchema(): unknown {
  return z.toJSONSchema(RepoConfigSchema, { io: "input" });
}
