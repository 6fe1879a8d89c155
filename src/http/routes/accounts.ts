import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import type { KeyAccess } from "../../accounts/key-access.js";
import { TaskScorerError } from "../../core/errors.js";
import { ErrorBodySchema, ScoreReportSchema } from "../../core/score-report.schema.js";

export const UsageSchema = z.object({
  account: z.string(),
  plan: z.string(),
  period: z.string().describe("Calendar month, UTC (YYYY-MM)."),
  periodEnds: z.string(),
  tasksUsed: z.number().int(),
  allowance: z.number().int().nullable().describe("Tasks per month; null means unlimited."),
  remaining: z.number().int().nullable(),
  amountDueUsd: z.number().describe("What the period costs under the plan so far."),
});

const StoredReportSchema = z.object({
  id: z.string(),
  visibility: z.enum(["public", "private"]),
  createdAt: z.string(),
  report: ScoreReportSchema,
});

const errors = { 401: ErrorBodySchema, 403: ErrorBodySchema, 404: ErrorBodySchema };

/** GET /reports pages: newest first, this many by default and at most. */
const DEFAULT_REPORTS_PER_PAGE = 50;
const MAX_REPORTS_PER_PAGE = 200;
const REPORTS_LIMIT = `expected a whole number from 1 to ${MAX_REPORTS_PER_PAGE}`;

type StoredReport = z.infer<typeof ScoreReportSchema>;
const withAsk = (report: StoredReport): StoredReport =>
  report.reading.ask === undefined ? { ...report, reading: { ...report.reading, ask: null } } : report;

/** The keyed API's own routes (AUTH=keys): usage for the key holder, and stored reports. */
export function registerAccountRoutes(app: FastifyInstance, access: KeyAccess): void {
  const typed = app.withTypeProvider<ZodTypeProvider>();

  typed.get(
    "/usage",
    {
      schema: {
        summary: "Usage this month",
        description:
          "Tasks counted this calendar month (UTC), the plan's allowance and the amount due so far.",
        response: { 200: UsageSchema, ...errors },
      },
    },
    async (request) => access.usage(await access.authenticate(request.headers.authorization, "usage:read")),
  );

  typed.get(
    "/reports/:id",
    {
      schema: {
        summary: "A stored report",
        description:
          "Reports of Free accounts are public: anyone with the link can read them. Other accounts' reports need a key of the same account with the `reports:read` scope.",
        params: z.object({
          id: z.string().regex(/^[\w-]{1,64}$/, "a report id such as rpt_AbC123 (letters, digits, _ and -)"),
        }),
        response: { 200: StoredReportSchema, ...errors },
      },
    },
    async (request) => {
      const stored = await access.readReport(request.params.id, request.headers.authorization);
      // Another account's private report is "not found", not "forbidden": its existence is private too.
      if (!stored)
        throw new TaskScorerError("not_found", `There is no report ${request.params.id} for you to read.`);
      return {
        id: stored.id,
        visibility: stored.visibility === "public" ? ("public" as const) : ("private" as const),
        createdAt: new Date(stored.created_at).toISOString(),
        // Reports stored before `reading.ask` existed carry none: null, as for a text without one.
        report: withAsk(stored.report as z.infer<typeof ScoreReportSchema>),
      };
    },
  );

  typed.get(
    "/reports",
    {
      schema: {
        summary: "This account's reports (Pro: API access)",
        description: `Newest first, ${DEFAULT_REPORTS_PER_PAGE} a page by default. \`nextCursor\` is null on the last page; otherwise pass it as \`cursor\` for the next one.`,
        querystring: z
          .object({
            limit: z.coerce
              .number({ error: REPORTS_LIMIT })
              .int(REPORTS_LIMIT)
              .min(1, REPORTS_LIMIT)
              .max(MAX_REPORTS_PER_PAGE, REPORTS_LIMIT)
              .default(DEFAULT_REPORTS_PER_PAGE),
            cursor: z
              .string()
              .regex(/^[\w-]{1,64}$/, "a cursor as a page's nextCursor gave it")
              .optional(),
          })
          .strict(),
        response: {
          200: z.object({
            reports: z.array(z.object({ id: z.string(), visibility: z.string(), createdAt: z.string() })),
            nextCursor: z.string().nullable(),
          }),
          400: ErrorBodySchema,
          ...errors,
        },
      },
    },
    async (request) => {
      const page = await access.listReports(request.headers.authorization, {
        limit: request.query.limit,
        ...(request.query.cursor ? { after: request.query.cursor } : {}),
      });
      const reports = page.reports.map((r) => ({
        id: r.id,
        visibility: r.visibility,
        createdAt: new Date(r.created_at).toISOString(),
      }));
      return { reports, nextCursor: page.more ? reports.at(-1)!.id : null };
    },
  );
}
