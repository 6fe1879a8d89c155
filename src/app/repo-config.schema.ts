import { z } from "zod";
import { ApprovalPolicySchema, type ApprovalPolicy } from "../core/approval.js";

/** Where a repository (or its organisation's `.github` repository, via `_extends`) configures the App. */
export const REPO_CONFIG_FILE = "task-scorer.yml";

const IssueTrigger = z.enum(["opened", "reopened", "edited"]);
const PullRequestTrigger = z.enum(["opened", "reopened", "ready_for_review", "edited"]);

const threshold = z.number().min(1).max(10);
const labelName = z
  .string()
  .max(50, "GitHub label names are at most 50 characters")
  .refine((s) => s.trim() === s, "must not start or end with spaces");

/**
 * `.github/task-scorer.yml`. Each top-level key is validated on its own: a bad key falls back to its
 * default and is reported in the comment, so one typo never silences the App.
 */
export const RepoConfigSchema = z
  .object({
    enabled: z.boolean().default(true).describe("Set to false to turn the App off for this repository."),
    comment: z.boolean().default(true).describe("Post (and keep updating) the report comment."),
    triggers: z
      .object({
        issues: z.array(IssueTrigger).default(["opened", "reopened", "edited"]),
        "pull-requests": z
          .array(PullRequestTrigger)
          .default(["opened", "reopened", "ready_for_review", "edited"]),
        "score-command": z
          .boolean()
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
      })
      .strict()
      .default({})
      .describe("Label names to set for the verdict; unset or null means no label. Created if missing."),
    "skip-labels": z
      .array(z.string())
      .default([])
      .describe("Issues or PRs carrying any of these labels are not scored."),
    "skip-title-patterns": z
      .array(
        z.string().refine((s) => {
          try {
            new RegExp(s, "i");
            return true;
          } catch {
            return false;
          }
        }, "is not a valid regular expression"),
      )
      .default([])
      .describe(
        "Regular expressions (case-insensitive); a title matching any is not scored, e.g. '^wip\\b'.",
      ),
  })
  .describe("task-scorer repository configuration (.github/task-scorer.yml)");

export type RepoConfig = z.output<typeof RepoConfigSchema>;

export interface ParsedRepoConfig {
  config: RepoConfig;
  /** One sentence per ignored key, shown in the comment. */
  notes: string[];
}

const DEFAULTS: RepoConfig = RepoConfigSchema.parse({});

export function parseRepoConfig(raw: unknown): ParsedRepoConfig {
  const notes: string[] = [];
  if (raw === null || raw === undefined) return { config: DEFAULTS, notes };
  if (typeof raw !== "object" || Array.isArray(raw)) {
    return {
      config: DEFAULTS,
      notes: [`.github/${REPO_CONFIG_FILE} is not a mapping of keys; the defaults are used.`],
    };
  }
  const shape = RepoConfigSchema.shape;
  const config: Record<string, unknown> = { ...DEFAULTS };
  for (const [key, value] of Object.entries(raw as Record<string, unknown>)) {
    if (key === "_extends") continue;
    const field = shape[key as keyof typeof shape];
    if (!field) {
      notes.push(`.github/${REPO_CONFIG_FILE}: unknown key \`${key}\` ignored.`);
      continue;
    }
    const parsed = field.safeParse(value);
    if (parsed.success) {
      config[key] = parsed.data;
    } else {
      const why = parsed.error.issues
        .map((i) => (i.path.length ? `${i.path.join(".")}: ${i.message}` : i.message))
        .join("; ");
      notes.push(`.github/${REPO_CONFIG_FILE}: \`${key}\` ignored (${why}); the default is used.`);
    }
  }
  return { config: config as RepoConfig, notes };
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
