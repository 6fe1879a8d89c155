import fastifySwagger from "@fastify/swagger";
import fastifySwaggerUi from "@fastify/swagger-ui";
import type { FastifyInstance } from "fastify";
import { jsonSchemaTransform, jsonSchemaTransformObject } from "fastify-type-provider-zod";

/**
 * The OpenAPI document, generated from the zod schemas that validate the routes (so it cannot drift), served at
 * /openapi.json, and Swagger UI at /docs from the package's own files (no CDN).
 */
export async function openApiDocs(app: FastifyInstance, options: { version: string; keys: boolean }) {
  await app.register(fastifySwagger, {
    openapi: {
      openapi: "3.1.0",
      info: {
        title: "task-scorer",
        version: options.version,
        description: options.keys
          ? "Scores a development task with five expert personas and returns one consensus report. Every request needs an API key (`Authorization: Bearer tsk_…`) and counts against its plan."
          : "Scores a development task with five expert personas and returns one consensus report. Open API: no credential is needed.",
      },
      ...(options.keys
        ? {
            components: {
              securitySchemes: {
                apiKey: {
                  type: "http" as const,
                  scheme: "bearer",
                  description: "An API key: tsk_ and 36 characters.",
                },
              },
            },
            security: [{ apiKey: [] }],
          }
        : {}),
    },
    transform: jsonSchemaTransform,
    transformObject: jsonSchemaTransformObject,
  });

  // Its CSP is the plugin's (hashes for Swagger UI's own inline bits) minus what an offline page on plain
  // HTTP must not have: outside sources and `upgrade-insecure-requests`, which would send the page's own
  // files to https:// on a LAN address.
  await app.register(fastifySwaggerUi, {
    routePrefix: "/docs",
    staticCSP: true,
    transformStaticCSP: (header: string) =>
      header.replace(/ https:| validator\.swagger\.io/g, "").replace(/\s*upgrade-insecure-requests;?/, ""),
  });
}

/** The document itself; registered after every route, so that all of them are in it. */
export function openApiRoute(app: FastifyInstance): void {
  app.get("/openapi.json", { schema: { hide: true } }, async () => app.swagger());
}
