import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { TaskScorerError } from "../../core/errors.js";
import { ErrorBodySchema } from "../../core/score-report.schema.js";
import { SIMILAR_METHOD } from "../../core/similar/similar-index.js";
import { FixedWindowLimiter } from "../rate-limit.js";
import { overLimit, readableRepository } from "./backlog-access.js";
import { OWNER_RE, REPO_RE, TASKS_PER_MINUTE, type BacklogRouteOptions } from "./backlog-route-options.js";

export const SimilarQuerySchema = z
  .object({
    limit: z.coerce
      .number({ error: "expected a whole number from 1 to 20" })
      .int({ error: "expected a whole number from 1 to 20" })
      .min(1, { error: "expected a whole number from 1 to 20" })
      .max(20, { error: "expected a whole number from 1 to 20" })
      .default(5),
  })
  .strict();

export const SimilarTasksSchema = z
  .object({
    number: z.number().int(),
    similar: z.array(
      z.object({
        number: z.number().int(),
        title: z.string(),
        url: z.string(),
        state: z.enum(["open", "closed"]),
        similarity: z.number().meta({
          description:
            "In [0, 1]: how likely the two are one issue, by the re-ranker over the words, the titles, rare words, code and error messages shared, and how far apart they were filed (docs/similar-issues.md).",
        }),
        duplicate: z.boolean().meta({
          description: `Likely the same issue: the first result only, at a similarity of ${SIMILAR_METHOD.duplicateAt} or more${SIMILAR_METHOD.duplicateMargin > 0 ? ` and ${SIMILAR_METHOD.duplicateMargin} ahead of the second` : ""}, and never two titles of a series ("… in module A" / "… in module B"). The threshold and its measured precision: docs/similar-issues.md.`,
        }),
      }),
    ),
  })
  .meta({ id: "SimilarTasks" });

/**
 * GET /api/repos/{owner}/{repo}/tasks/{number}/similar (issue 32; contract-decisions.md, "Similar issues"): the
 * repository's issues most like one it stores, ranked, from its open issues and the closed ones the App has read.
 * The same access rules and rate limit as the tasks list (its own counter).
 */
export function similarTasksRoute(app: FastifyInstance, options: BacklogRouteOptions): void {
  const typed = app.withTypeProvider<ZodTypeProvider>();
  const perMinute = options.rateLimit?.json ?? TASKS_PER_MINUTE;
  const limiter = new FixedWindowLimiter(perMinute, options.rateLimit?.windowMs ?? 60_000);
  typed.get(
    "/api/repos/:owner/:repo/tasks/:number/similar",
    {
      schema: {
        summary: "Issues like one issue",
        description:
          "The repository's issues most similar to one the App stores (its open issues and the closed ones it has read), most similar first, at most `limit` (1–20, default 5). `duplicate` marks the first one when it is likely the same issue. Public repositories need no sign-in; private ones need a signed-in GitHub user with read access.",
        params: z.object({
          owner: z.string().regex(OWNER_RE, "a GitHub user or organisation name"),
          repo: z.string().regex(REPO_RE, "a GitHub repository name"),
          number: z.coerce
            .number({ error: "expected an issue number" })
            .int({ error: "expected an issue number" })
            .min(1, { error: "expected an issue number" })
            .max(2_147_483_647, { error: "expected an issue number" }),
        }),
        querystring: SimilarQuerySchema,
        response: {
          200: SimilarTasksSchema,
          400: ErrorBodySchema,
          401: ErrorBodySchema,
          404: ErrorBodySchema,
          429: ErrorBodySchema,
          503: ErrorBodySchema,
        },
      },
    },
    async (request, reply) => {
      const { owner, repo, number } = request.params;
      const name = `${owner}/${repo}`;
      if (overLimit(request, reply, options.access, limiter, "backlog requests", perMinute)) return reply;
      const { store } = await readableRepository(request, reply, options, owner, repo);
      reply.header("vary", "cookie");
      const similar = await store.similar.similarTo(name, number, request.query.limit);
      if (!similar)
        throw new TaskScorerError(
          "not_found",
          `task-scorer has not stored issue #${number} of ${name}: it keeps the open issues it scored and the closed ones it learned from.`,
        );
      return {
        number,
        similar: similar.map((s) => ({
          number: s.number,
          title: s.title,
          url: s.url,
          state: s.state,
          similarity: s.similarity,
          duplicate: s.duplicate,
        })),
      };
    },
  );
}
