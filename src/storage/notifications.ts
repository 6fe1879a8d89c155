/**
 * Change notices shared by every instance of the service: PostgreSQL's LISTEN/NOTIFY on both engines (PGlite
 * supports it in-process). A store sends a notice in the same transaction as the change (`pg_notify`), so it
 * reaches the listeners exactly when the change is visible, and never for a change that rolled back.
 *
 * A listener that loses its connection cannot know what it missed: it says so (`onReset`) when it is down and
 * again when it is back, and the caller drops whatever it cached from the notices in between.
 */
export interface NoticeHandlers {
  onNotice: (payload: string) => void;
  /** The connection dropped or came back: anything cached from notices must be dropped. */
  onReset: (listening: boolean) => void;
}

export interface Listener {
  /** True while notices are being received. */
  readonly listening: boolean;
  close(): Promise<void>;
}

/** A channel name as PostgreSQL takes it: an identifier, quoted by us. */
function quoted(channel: string): string {
  if (!/^[a-z_][a-z0-9_]{0,62}$/.test(channel)) throw new Error(`not a channel name: ${channel}`);
  return `"${channel}"`;
}

/**
 * Listen on PostgreSQL with a connection of its own (a pooled one would be handed to other queries), and
 * reconnect after a drop, with backoff up to `maxBackoffMs`.
 */
export async function listenOnPostgres(
  url: string,
  channel: string,
  handlers: NoticeHandlers,
  options: { maxBackoffMs?: number; log?: (message: string) => void } = {},
): Promise<Listener> {
  const pg = (await import("pg")).default;
  const maxBackoff = options.maxBackoffMs ?? 5_000;
  let closed = false;
  let listening = false;
  let client: InstanceType<typeof pg.Client> | undefined;
  let timer: NodeJS.Timeout | undefined;
  let backoff = 100;

  const down = () => {
    if (listening) {
      listening = false;
      handlers.onReset(false);
    }
    client?.removeAllListeners();
    client?.end().catch(() => undefined);
    client = undefined;
    if (!closed) {
      timer = setTimeout(() => void connect(), backoff);
      backoff = Math.min(maxBackoff, backoff * 2);
    }
  };

  const connect = async (): Promise<void> => {
    const c = new pg.Client({ connectionString: url });
    client = c;
    c.on("error", () => down());
    c.on("end", () => {
      if (client === c) down();
    });
    c.on("notification", (n) => {
      if (n.channel === channel) handlers.onNotice(n.payload ?? "");
    });
    try {
      await c.connect();
      await c.query(`LISTEN ${quoted(channel)}`);
      if (closed) return void (await c.end());
      backoff = 100;
      listening = true;
      handlers.onReset(true);
    } catch (err) {
      options.log?.(`notice listener on ${channel}: ${(err as Error).message}; retrying`);
      if (client === c) down();
    }
  };

  await connect();
  return {
    get listening() {
      return listening;
    },
    async close() {
      closed = true;
      clearTimeout(timer);
      listening = false;
      const c = client;
      client = undefined;
      c?.removeAllListeners();
      await c?.end().catch(() => undefined);
    },
  };
}

/** PGlite: one process, one session; its LISTEN never drops. */
export interface PgliteListenable {
  listen(channel: string, callback: (payload: string) => void): Promise<() => Promise<void>>;
}

export async function listenOnPglite(
  pg: PgliteListenable,
  channel: string,
  handlers: NoticeHandlers,
): Promise<Listener> {
  const unlisten = await pg.listen(channel, handlers.onNotice);
  handlers.onReset(true);
  let listening = true;
  return {
    get listening() {
      return listening;
    },
    async close() {
      listening = false;
      await unlisten().catch(() => undefined);
    },
  };
}
