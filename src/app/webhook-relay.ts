import type { Logger } from "pino";

/**
 * WEBHOOK_PROXY_URL (Probot's convention for local development): GitHub delivers to a smee.io
 * channel and this relays each delivery to the local webhook path. smee-client is a development
 * dependency, loaded only when the variable is set: a production install neither has nor needs it.
 */
export async function startWebhookRelay(
  source: string,
  target: string,
  logger: Logger,
): Promise<{ stop: () => Promise<void> } | undefined> {
  let SmeeClient: typeof import("smee-client").default;
  try {
    SmeeClient = (await import("smee-client")).default;
  } catch {
    logger.warn(
      "WEBHOOK_PROXY_URL is set but smee-client is not installed (a development dependency): run `npm install` without --omit=dev to relay webhooks",
    );
    return undefined;
  }
  const client = new SmeeClient({
    source,
    target,
    logger: {
      info: (...a: unknown[]) => logger.debug(a.join(" ")),
      error: (...a: unknown[]) => logger.warn(a.join(" ")),
    },
  });
  try {
    await client.start();
  } catch (err) {
    // The API and the webhook path still work; only the relay is missing.
    logger.warn(
      { source, reason: (err as Error).message },
      "WEBHOOK_PROXY_URL could not be reached; no relay",
    );
    return undefined;
  }
  logger.info({ source, target }, "relaying webhooks from WEBHOOK_PROXY_URL");
  return { stop: () => client.stop() };
}
