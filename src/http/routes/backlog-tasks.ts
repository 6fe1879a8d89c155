import type { FastifyInstance, FastifyReply } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { PERSONA_KEYS } from "../../core/contract.js";
import { TaskScorerError } from "../../core/errors.js";
import { ErrorBodySchema } from "../../core/score-report.schema.js";
import { FixedWindowLimiter } from "../rate-limit.js";
import { BacklogStore } from "../../backlog/backlog-store.js";
import {
  DEFAULT_TASKS_PER_PAGE,
  MAX_CSV_ROWS,
  TaskListQuerySchema,
  TaskListSchema,
  type BacklogTask,
} from "../../backlog/task-list.schema.js";
import { overLimit, readableRepository } from "./backlog-access.js";
import { similarTasksRoute } from "./similar-tasks.js";
import {
  CSV_PER_MINUTE,
  OWNER_RE,
  REPO_RE,
  TASKS_PER_MINUTE,
  type BacklogRouteOptions,
} from "./backlog-route-options.js";

// Re-exported for the callers that imported them from here.
export {
  CSV_PER_MINUTE,
  OWNER_RE,
  REPO_RE,
  STORAGE_REQUIRED,
  TASKS_PER_MINUTE,
  type AccessVerdict,
  type BacklogRouteOptions,
  type PrivateRepoAccess,
} from "./backlog-route-options.js";

const CSV_COLUMNS = [
  "rank",
  "number",
  "title",
  "url",
  "score",
  "approved",
  "needs_human",
  "kind",
  ...PERSONA_KEYS,
  "scored_at",
  "created_at",
  "ask",
  "duplicate_of",
] as const;

/**
 * One CSV cell (RFC 4180). A cell that a spreadsheet would run as a formula (=, +, -, @, tab, CR) gets a
 * leading apostrophe: issue titles are written by anyone.
 */
export function csvCell(value: string | number | boolean | undefined): string {
  let s = value === undefined ? "" : String(value);
  if (typeof value === "string" && /^[=+\-@\t\r]/.test(s)) s = `'${s}`;
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

export function tasksCsv(tasks: readonly BacklogTask[], offset = 0): string {
  const lines = [CSV_COLUMNS.join(",")];
  tasks.forEach((t, i) => {
    lines.push(
      [
        offset + i + 1,
        t.number,
        t.title,
        t.url,
        t.score,
        t.approved,
        t.needsHuman,
        t.kind,
        ...PERSONA_KEYS.map((key) => t.personas[key]),
        t.scoredAt,
        t.createdAt,
        t.ask ?? undefined,
        t.duplicateOf ?? undefined,
      ]
        .map(csvCell)
        .join(","),
    );
  });
  return `${lines.join("\r\n")}\r\n`;
}

/**
 * GET /api/repos/{owner}/{repo}/tasks: a repository's open issues with their latest reports, ranked (see
 * contract-decisions.md, "The backlog"). A public repository's backlog is public; a private one's needs a
 * signed-in user who can read it. A repository that is unknown or private answers 401 without a session
 * and 404 without access, so that no one learns a private repository exists.
 */
export function backlogTasksRoute(app: FastifyInstance, options: BacklogRouteOptions): void {
  const typed = app.withTypeProvider<ZodTypeProvider>();
  const windowMs = options.rateLimit?.windowMs ?? 60_000;
  const jsonLimit = options.rateLimit?.json ?? TASKS_PER_MINUTE;
  const csvLimit = options.rateLimit?.csv ?? CSV_PER_MINUTE;
  const limiters = {
    json: new FixedWindowLimiter(jsonLimit, windowMs),
    csv: new FixedWindowLimiter(csvLimit, windowMs),
  };
  typed.get(
    "/api/repos/:owner/:repo/tasks",
    {
      schema: {
        summary: "A repository's ranked backlog",
        description:
          "The repository's open issues, each with its latest report, highest score first unless `sort` says otherwise, with the backfill's progress. `format=csv` (or `Accept: text/csv`) downloads every matching row as CSV. Public repositories need no sign-in; private ones need a signed-in GitHub user with read access.",
        params: z.object({
          owner: z.string().regex(OWNER_RE, "a GitHub user or organisation name"),
          repo: z.string().regex(REPO_RE, "a GitHub repository name"),
        }),
        querystring: TaskListQuerySchema,
        response: {
          200: TaskListSchema,
          400: ErrorBodySchema,
          401: ErrorBodySchema,
          404: ErrorBodySchema,
          429: ErrorBodySchema,
          503: ErrorBodySchema,
        },
      },
    },
    async (request, reply) => {
      const { owner, repo } = request.params;
      const name = `${owner}/${repo}`;
      const query = request.query;
      const csv =
        query.format === "csv" ||
        (query.format === undefined && /\btext\/csv\b/i.test(request.headers.accept ?? ""));
      // Per client, before any work: a signed-in user by their GitHub id, anyone else by address.
      if (
        csv
          ? overLimit(request, reply, options.access, limiters.csv, "CSV downloads", csvLimit)
          : overLimit(request, reply, options.access, limiters.json, "backlog requests", jsonLimit)
      )
        return reply;
      const { store, row } = await readableRepository(request, reply, options, owner, repo);
      reply.header("vary", "accept, cookie");
      const page = await store.listTasks(name, {
        ...query,
        ...(csv
          ? { cursor: undefined, limit: MAX_CSV_ROWS }
          : { limit: query.limit ?? DEFAULT_TASKS_PER_PAGE }),
      });
      if (!page)
        throw new TaskScorerError(
          "invalid_request",
          "cursor is not one this server gave: pass the nextCursor of the previous page, or leave it out to start over.",
          { parameter: "cursor" },
        );
      if (csv) return sendCsv(reply, row.display_name, tasksCsv(page.tasks));
      return {
        repository: row.display_name,
        total: page.total,
        backfill: BacklogStore.progress(row),
        calibration: row.calibration,
        tasks: page.tasks,
        nextCursor: page.nextCursor,
      };
    },
  );
  // The issues like one of these tasks (issue 32): the same store, access and limits.
  similarTasksRoute(app, options);
}

function sendCsv(reply: FastifyReply, repository: string, body: string) {
  const file = `${repository.replace(/[^\w.-]+/g, "-")}-tasks.csv`;
  return reply
    .type("text/csv; charset=utf-8")
    .header("content-disposition", `attachment; filename="${file}"`)
    .send(body);
}
