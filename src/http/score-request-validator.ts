import type { FastifySchemaCompiler } from "fastify";
import { validatorCompiler } from "fastify-type-provider-zod";
import type { ZodType } from "zod";
import {
  DESCRIPTION_MAX_CHARS,
  ScoreRequestSchema,
  TASK_MAX_CHARS,
  type TaskInput,
} from "../core/task-request.schema.js";

/**
 * The common `POST /score-task` body, `{ task }` or `{ task, description }` with short texts, checked by hand; any
 * other body (`undefined` here) is left to zod, whose answer, and error message, stands. For a body accepted here
 * the result is what `ScoreRequestSchema` gives for it, field for field and in the same order (a test compares the
 * two over generated bodies, and fails when the schema gains a field): zod's parse of this one body was the
 * largest single cost of the one-word REST path (measured: about 10 µs of a request's CPU at a load of 15, where
 * a request costs about 140 µs), because its generated parser and the checks it calls run cold between requests.
 */
export function quickScoreRequest(body: unknown): TaskInput | undefined {
  if (typeof body !== "object" || body === null || Object.getPrototypeOf(body) !== Object.prototype)
    return undefined;
  const { task, description } = body as { task?: unknown; description?: unknown };
  let fields = 0;
  for (const key in body) {
    if (key !== "task" && key !== "description") return undefined;
    fields++;
  }
  // Longer texts are counted in code points (withinCodePoints), which zod does.
  if (typeof task !== "string" || task.length > TASK_MAX_CHARS || task.trim().length === 0) return undefined;
  // Absent or null is "" (zod's nullish, then its transform).
  if (description === null || (description === undefined && fields === 1)) return { task, description: "" };
  if (typeof description !== "string" || description.length > DESCRIPTION_MAX_CHARS) return undefined;
  return { task, description };
}

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
