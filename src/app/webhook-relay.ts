import type { Logger } from "pino";

/**
 * WEBHOOK_PROXY_URL (Probot's convention for local development): GitHub delivers to a smee.io
 * channel and this relays each delivery to the local webhook path. smee-client is a development
 * dependency, loaded only when the variable is set: a production install neither has nor needs it.
 *
 * The channel being unreachable (smee.io down, no network) is said once, as a warning with the reason in
 * words, and then tried again with exponential backoff (1 s, 2 s, 4 s … at most 5 minutes), instead of the
 * event stream's own retry every 3 seconds with `Error in connection [object Event]` each time. A connection
 * that drops later is handled the same way; getting through again is logged once.
 */
export interface RelayOptions {
  /** The first wait after a failure; doubled after each further failure. Default 1 s. */
  initialDelayMs?: number;
  /** The longest wait between attempts. Default 5 minutes. */
  maxDelayMs?: number;
  /** How long one attempt may take to connect. Default 30 s. */
  connectTimeoutMs?: number;
}

export interface WebhookRelay {
  stop: () => Promise<void>;
  /** Whether the channel is connected now. */
  readonly connected: boolean;
}

type SmeeClientClass = typeof import("smee-client").default;
type SmeeClient = InstanceType<SmeeClientClass>;

/** An error, an ErrorEvent of the event stream (`message`, `code`) or anything else, as words. */
export function relayErrorText(err: unknown): string {
  if (typeof err === "string") return err;
  if (err && typeof err === "object") {
    const { message, code } = err as { message?: unknown; code?: unknown };
    if (typeof message === "string" && message) {
      const cause = (err as { cause?: { message?: unknown } }).cause?.message;
      return typeof cause === "string" && cause && !message.includes(cause)
        ? `${message}: ${cause}`
        : message;
    }
    if (typeof code === "number") return `HTTP ${code}`;
  }
  return "the connection failed (no reason given)";
}

export async function startWebhookRelay(
  source: string,
  target: string,
  logger: Logger,
  options: RelayOptions = {},
): Promise<WebhookRelay | undefined> {
  let SmeeClient: SmeeClientClass;
  try {
    SmeeClient = (await import("smee-client")).default;
  } catch {
    logger.warn(
      "WEBHOOK_PROXY_URL is set but smee-client is not installed (a development dependency): run `npm install` without --omit=dev to relay webhooks",
    );
    return undefined;
  }
  const initialDelay = options.initialDelayMs ?? 1000;
  const maxDelay = Math.max(initialDelay, options.maxDelayMs ?? 5 * 60_000);
  const connectTimeout = options.connectTimeoutMs ?? 30_000;

  let stopped = false;
  let client: SmeeClient | undefined;
  let timer: NodeJS.Timeout | undefined;
  let failures = 0;
  let delay = initialDelay;
  let connected = false;

  const smeeLogger = {
    info: (...a: unknown[]) => logger.debug(a.map(relayErrorText).join(" ")),
    error: (...a: unknown[]) => {
      // Connection errors are handled (and said once) below; what remains is a delivery that could not be
      // passed on to the local server.
      if (a.length === 1 && a[0] instanceof Error)
        logger.warn(
          { reason: relayErrorText(a[0]) },
          "webhook relay: a delivery could not be passed on to the local server",
        );
      else logger.debug(a.map(relayErrorText).join(" "));
    },
  };

  const failed = (reason: string) => {
    connected = false;
    if (stopped) return;
    failures++;
    const wait = delay;
    delay = Math.min(delay * 2, maxDelay);
    if (failures === 1)
      logger.warn(
        { source, reason, retryInSeconds: wait / 1000, maxRetrySeconds: maxDelay / 1000 },
        `webhook relay: WEBHOOK_PROXY_URL could not be reached (${reason}); trying again with backoff, at most every ${Math.round(maxDelay / 1000)} s. Deliveries GitHub sends meanwhile are not relayed (redeliver them from the App's settings page, Advanced).`,
      );
    else
      logger.debug(
        { source, reason, failures, retryInSeconds: wait / 1000 },
        "webhook relay: WEBHOOK_PROXY_URL still unreachable",
      );
    timer = setTimeout(() => void connect(), wait);
    timer.unref();
  };

  const connect = async (): Promise<void> => {
    timer = undefined;
    if (stopped) return;
    const c = new SmeeClient({ source, target, logger: smeeLogger, maxConnectionTimeout: connectTimeout });
    client = c;
    let events: Awaited<ReturnType<SmeeClient["start"]>>;
    try {
      events = await c.start();
    } catch (err) {
      // The event stream would retry on its own every 3 s: it is closed, and tried again after the backoff.
      await c.stop().catch(() => {});
      if (client === c) client = undefined;
      failed(relayErrorText(err));
      return;
    }
    if (stopped || client !== c) {
      await c.stop().catch(() => {});
      return;
    }
    connected = true;
    if (failures > 0)
      logger.info({ source, target, failures }, "webhook relay: connected to WEBHOOK_PROXY_URL again");
    else logger.info({ source, target }, "relaying webhooks from WEBHOOK_PROXY_URL");
    failures = 0;
    delay = initialDelay;
    events.addEventListener("error", (err: unknown) => {
      if (client !== c) return;
      client = undefined;
      void c.stop().catch(() => {});
      failed(relayErrorText(err));
    });
  };

  // The API and the webhook path work whatever becomes of the relay; the first attempt is awaited only so
  // that the log says how it went before the server reports itself ready.
  await connect();
  return {
    get connected() {
      return connected;
    },
    stop: async () => {
      stopped = true;
      if (timer) clearTimeout(timer);
      const c = client;
      client = undefined;
      connected = false;
      await c?.stop();
    },
  };
}
