import { z } from "zod";
import { KINDS, perPersona } from "../core/contract.js";
import { PersonaScoreSchema } from "../core/score-report.schema.js";

/**
 * The backlog's HTTP boundary: `GET /api/repos/{owner}/{repo}/tasks` (see contract-decisions.md, "The
 * backlog"). The board page reads the same JSON.
 */

export const TASK_KINDS = KINDS;
/** `score` and `-score` follow the JSON:API convention: a leading "-" is descending. */
export const TASK_SORTS = ["-score", "score", "number", "-number", "updated", "-updated"] as const;
export const DEFAULT_TASK_SORT = "-score";
export const MAX_TASKS_PER_PAGE = 500;
/** What an out-of-range or malformed `limit` is told. */
const LIMIT_RANGE = `expected a whole number from 1 to ${MAX_TASKS_PER_PAGE}`;
export const DEFAULT_TASKS_PER_PAGE = 100;
/** A CSV download holds every matching row, up to this many. */
export const MAX_CSV_ROWS = 10_000;

const booleanParam = z
  .enum(["true", "false"], { error: "expected true or false" })
  .transform((v) => v === "true");

export const TaskListQuerySchema = z
  .object({
    kind: z.enum(TASK_KINDS, { error: `expected one of ${TASK_KINDS.join(", ")}` }).optional(),
    approved: booleanParam.optional(),
    needsHuman: booleanParam.optional(),
    duplicates: booleanParam.optional().meta({
      description:
        "true: only tasks that are likely duplicates of an earlier issue (`duplicateOf` set); false: only the others. The first such request for a large repository works out every task's `duplicateOf` (seconds at 10,000 issues); later ones reuse it.",
    }),
    q: z.string().max(200, "at most 200 characters").optional(),
    sort: z
      .enum(TASK_SORTS, { error: `expected one of ${TASK_SORTS.join(", ")}` })
      .default(DEFAULT_TASK_SORT),
    limit: z.coerce
      .number({ error: LIMIT_RANGE })
      .int(LIMIT_RANGE)
      .min(1, LIMIT_RANGE)
      .max(MAX_TASKS_PER_PAGE, LIMIT_RANGE)
      .optional()
      .meta({
        description: `Rows per page (default ${DEFAULT_TASKS_PER_PAGE}); CSV ignores it and holds every matching row.`,
      }),
    cursor: z.string().max(200).optional(),
    format: z.enum(["json", "csv"], { error: "expected json or csv" }).optional(),
  })
  .strict();
export type TaskListQuery = z.output<typeof TaskListQuerySchema>;

export const BacklogTaskSchema = z
  .object({
    number: z.number().int(),
    title: z.string(),
    ask: z.string().nullable().meta({
      description:
        "The report's `reading.ask`: the author's own sentence stating the request or the problem, quoted exactly (at most 240 characters); null where the text has none, or the report predates it.",
    }),
    url: z.string(),
    score: z.number().meta({ description: "The consensus average, 1–10." }),
    approved: z.boolean(),
    needsHuman: z.boolean().meta({
      description:
        "A person should decide: the five personas are 4 or more points apart, or the reader gave the kind less than even odds.",
    }),
    kind: z.enum(TASK_KINDS),
    personas: z.object(perPersona(() => PersonaScoreSchema)),
    scoredAt: z.string(),
    createdAt: z.string().optional().meta({ description: "When the issue was opened (for its age)." }),
    updatedAt: z.string().optional().meta({ description: "When the issue was last updated on GitHub." }),
    duplicateOf: z.number().int().nullable().meta({
      description:
        "The earlier issue (open, or closed and read by the App) this one is likely the same as, or null: the most similar earlier issue when its similarity passes the threshold chosen for precision (see /similar and docs/similar-issues.md).",
    }),
  })
  .meta({ id: "BacklogTask" });
export type BacklogTask = z.infer<typeof BacklogTaskSchema>;

export const BackfillProgressSchema = z
  .object({
    state: z.enum(["queued", "running", "done"]),
    done: z.number().int(),
    total: z.number().int(),
  })
  .meta({ id: "BackfillProgress" });
export type BackfillProgress = z.infer<typeof BackfillProgressSchema>;

export const TaskListSchema = z
  .object({
    repository: z.string(),
    total: z.number().int().meta({ description: "Open tasks matching the filters." }),
    backfill: BackfillProgressSchema,
    calibration: z.object({ closedIssues: z.number().int(), used: z.boolean() }),
    tasks: z.array(BacklogTaskSchema),
    nextCursor: z
      .string()
      .nullable()
      .meta({ description: "Pass as `cursor` for the next page; null on the last page." }),
  })
  .meta({ id: "TaskList" });
export type TaskList = z.infer<typeof TaskListSchema>;
