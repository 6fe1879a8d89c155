import type { FastifySchemaCompiler } from "fastify";
import { validatorCompiler } from "fastify-type-provider-zod";
import type { ZodType } from "zod";
import { quickScoreRequest, ScoreRequestSchema } from "../core/task-request.schema.js";

/**
 * fastify's validator compiler: zod's, but for `ScoreRequestSchema` the common body is checked by
 * `quickScoreRequest` first.
 */
export const scoreRequestFirst: FastifySchemaCompiler<ZodType> = (route) => {
  const zod = validatorCompiler(route);
  if (route.schema !== ScoreRequestSchema) return zod;
  return (body: unknown) => {
    const quick = quickScoreRequest(body);
    return quick ? { value: quick } : zod(body);
  };
};
