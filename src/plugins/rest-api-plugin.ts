import type { FastifyInstance } from "fastify";
import { restApiRoutes, type RestApiDeps } from "../http/build-server.js";

export type RestApiPluginOptions = Omit<RestApiDeps, "scorer" | "policy" | "access">;

/**
 * The REST API's routes (POST /score-task, health, metrics, the start page, OpenAPI, accounts) over the scorer
 * and the keys the earlier plugins made. In a scope of their own: hooks later plugins add to the server (the
 * sign-in's cookie clearing) do not run on the scoring path.
 */
export async function restApiPlugin(scope: FastifyInstance, options: RestApiPluginOptions): Promise<void> {
  const { scorer, policy } = scope.scoring;
  await restApiRoutes(scope, {
    ...options,
    scorer,
    policy,
    ...(scope.keyAccess ? { access: scope.keyAccess } : {}),
  });
}
