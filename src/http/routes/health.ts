import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import type { ServiceMetrics } from "../metrics.js";

/** Liveness (never calls GitHub or the model, so a provider outage does not restart healthy instances). */
export function healthRoute(app: FastifyInstance, info: { version: string; scorer: string; app: boolean }) {
  app.withTypeProvider<ZodTypeProvider>().get(
    "/healthz",
    {
      schema: {
        summary: "Liveness",
        response: {
          200: z.object({
            status: z.literal("ok"),
            version: z.string(),
            scorer: z.string(),
            app: z.boolean().describe("Whether the GitHub App runs in this process"),
          }),
        },
      },
    },
    async () => ({ status: "ok" as const, ...info }),
  );
}

/** Prometheus text, for the scraper. */
export function metricsRoute(app: FastifyInstance, metrics: ServiceMetrics): void {
  app.get("/metrics", { schema: { hide: true } }, async (_request, reply) => {
    reply.type(metrics.registry.contentType);
    return metrics.registry.metrics();
  });
}
