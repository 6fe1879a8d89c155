import type { Logger } from "pino";
import { registrationPlugin as manifestRegistration } from "../app/manifest-registration.js";
import { envFilePath } from "../config/load-env-file.js";
import { isLoopbackHost, type ServiceConfig } from "../config/service-config.js";

/**
 * Without credentials, the start page offers to register the App (GitHub's manifest flow). Only where a stranger
 * cannot reach it: on a public server anyone could otherwise register an App of their own, have its credentials
 * (and webhook secret) written here, and then sign events as GitHub.
 */
export function registrationOffered(config: Pick<ServiceConfig, "app" | "server">): boolean {
  const { app } = config;
  return (
    !app.credentials &&
    (app.registration === "on" ||
      (app.registration === "auto" && isLoopbackHost(config.server.host) && !app.production))
  );
}

export interface RegistrationPluginOptions {
  app: ServiceConfig["app"];
  publicUrl: string | undefined;
  /** Where registering writes the credentials; default `.env` in the working directory. */
  envFile?: string | undefined;
  logger: Logger;
}

/** Registering the App from the start page (its routes in a scope of their own). */
export async function registrationPlugin(
  scope: import("fastify").FastifyInstance,
  options: RegistrationPluginOptions,
): Promise<void> {
  const { app } = options;
  const routes = await manifestRegistration({
    envFile: options.envFile ?? envFilePath(),
    ghe: app.ghe,
    webhookPath: app.webhookPath,
    webhookProxyUrl: app.webhookProxyUrl,
    publicUrl: options.publicUrl,
    logger: options.logger,
  });
  await routes(scope);
}
