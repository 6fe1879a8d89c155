import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { TaskScorerError } from "../../core/errors.js";
import { ErrorBodySchema } from "../../core/score-report.schema.js";
import { SIMILAR_METHOD } from "../../core/similar/similar-index.js";
import { sendError } from "../http-errors.js";
import { FixedWindowLimiter } from "../rate-limit.js";
import {
  OWNER_RE,
  REPO_RE,
  STORAGE_REQUIRED,
  TASKS_PER_MINUTE,
  type BacklogRouteOptions,
} from "./backlog-route-options.js";

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
        similarity: z
          .number()
          .meta({ description: "In [0, 1]: 1 is the same words in the same proportions." }),
        duplicate: z.boolean().meta({
          description: `Likely the same issue: the first result only, at a similarity of ${SIMILAR_METHOD.duplicateAt} or more and ${SIMILAR_METHOD.duplicateMargin} ahead of the second (the threshold and its measured precision: docs/similar-issues.md).`,
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
      const { store, access } = options;
      const { owner, repo, number } = request.params;
      const name = `${owner}/${repo}`;
      const user = access?.userOf?.(request);
      const wait = limiter.take(user ? `user:${user}` : `ip:${request.ip}`);
      if (wait > 0)
        return sendError(
          reply,
          "rate_limited",
          `Too many backlog requests ${user ? "by your GitHub account" : "from this address"}: at most ${perMinute} a minute. Try again in ${wait} s.`,
          { headers: { "retry-after": String(wait) } },
        );
      if (!store) throw new TaskScorerError("storage_required", STORAGE_REQUIRED);
      const row = await store.repositoryWithCalibration(name);
      const notFound = new TaskScorerError(
        "not_found",
        `task-scorer has no backlog for ${name}. Install the GitHub App on it, or ask a maintainer to comment \`/score backlog\` on one of its issues.`,
      );
      if (!row || row.private !== false) {
        // Unknown repositories and private ones answer alike, as the tasks list does.
        const verdict = access ? await access.check(request, owner, repo) : "unauthenticated";
        if (verdict === "unauthenticated")
          throw new TaskScorerError(
            "unauthorized",
            access
              ? `No backlog here: the App has not scored a public repository named ${name}. If it is private, sign in with GitHub to see it (/auth/github/login?return_to=/board/${name}).`
              : `${name}'s backlog is private or unknown, and sign-in is not configured on this server (GITHUB_CLIENT_ID, GITHUB_CLIENT_SECRET, SESSION_SECRET).`,
          );
        if (verdict === "not_found" || !row) throw notFound;
        reply.header("cache-control", "private, no-store");
      } else {
        reply.header("cache-control", "no-cache");
      }
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
