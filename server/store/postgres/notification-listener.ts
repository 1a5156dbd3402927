/**
 * One connection per instance that LISTENs on a channel for the database's notifications
 * (migrations/0017_cache_notifications.sql sends them), for the caches of change-cache.ts. Its own
 * client, not one of the pool's: a LISTEN holds its session for as long as it listens, and a pooled
 * connection is handed to other queries and ended when idle.
 *
 * The surface names no driver: whoever listens is told each payload and whether it is listening.
 * Not listening is every moment between a cut (the server ended the session, the network failed,
 * a restart) and the next LISTEN that succeeded; notifications sent then are lost, which is why the
 * caches empty themselves and step aside until `onState(true)`.
 */
import pg from "pg";

export interface ChangeHandlers {
  /** A notification's payload, as sent. */
  onNotify(payload: string): void;
  /** True once LISTEN succeeded; false at once when the connection fails or ends. */
  onState(listening: boolean): void;
}

export interface ChangeSubscription {
  /** Stops listening and ends the connection; no handler is called after it resolves. */
  close(): Promise<void>;
}

/** Starts listening for changes: a driver's way to subscribe, as the persistence is given it. */
export type ListenForChanges = (handlers: ChangeHandlers) => ChangeSubscription;

/** What `pg_stat_activity` shows of the listening connection (the tests cut it by this name). */
export const LISTENER_APPLICATION_NAME = "partner-api-cache-listener";

/** The first pause before connecting again after a cut, doubled at each failure up to the longest. */
const FIRST_RETRY_MS = 50;
const LONGEST_RETRY_MS = 2_000;
/** A connection attempt that takes longer than this failed: the next one is tried. */
const CONNECT_TIMEOUT_MS = 5_000;
/**
 * How often the listening connection is asked a trivial query, and how long its answer may take.
 * A peer gone without closing the connection (a host that vanished, a network cut without a reset)
 * would otherwise leave it "listening" to nothing until TCP gives up, which takes many minutes: an
 * unanswered query ends it, so an instance trusts its caches at most this long after such a cut.
 */
const HEARTBEAT_MS = 5_000;

/** How long closing waits for the server to see the connection ended: a cut network never answers. */
const CLOSE_WAIT_MS = 1_000;

/** Ends a client, waiting at most CLOSE_WAIT_MS for the server's side. */
function endSoon(client: pg.Client): Promise<void> {
  return new Promise((resolve) => {
    const late = setTimeout(resolve, CLOSE_WAIT_MS);
    late.unref();
    client.end().then(
      () => {
        clearTimeout(late);
        resolve();
      },
      () => {
        clearTimeout(late);
        resolve();
      },
    );
  });
}

/** Quotes a channel name as an identifier: LISTEN takes no parameter. */
const identifier = (name: string) => `"${name.replaceAll('"', '""')}"`;

export function listenForChanges(connectionString: string, channel: string, handlers: ChangeHandlers): ChangeSubscription {
  let closed = false;
  let client: pg.Client | null = null;
  let listening = false;
  let retryMs = FIRST_RETRY_MS;
  let retry: NodeJS.Timeout | null = null;
  let heartbeat: NodeJS.Timeout | null = null;

  const setListening = (value: boolean) => {
    if (listening === value || closed) return;
    listening = value;
    handlers.onState(value);
  };

  /** The connection is gone or unusable: stop trusting it at once, and try another after a pause. */
  const lost = (lostClient: pg.Client) => {
    if (client !== lostClient) return;
    client = null;
    setListening(false);
    if (heartbeat) clearInterval(heartbeat);
    heartbeat = null;
    void endSoon(lostClient);
    if (closed) return;
    retry = setTimeout(connect, retryMs);
    retryMs = Math.min(retryMs * 2, LONGEST_RETRY_MS);
  };

  async function connect(): Promise<void> {
    retry = null;
    if (closed) return;
    const current = new pg.Client({
      connectionString,
      application_name: LISTENER_APPLICATION_NAME,
      connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
      // A dead peer is noticed without waiting for a notification that would never come.
      keepAlive: true,
    });
    client = current;
    current.on("notification", (message) => {
      if (client === current && listening && message.channel === channel) handlers.onNotify(message.payload ?? "");
    });
    current.on("error", () => lost(current));
    current.on("end", () => lost(current));
    try {
      await current.connect();
      await current.query(`LISTEN ${identifier(channel)}`);
    } catch {
      lost(current);
      return;
    }
    // Closed, or given up on, while it connected.
    if (client !== current) {
      await endSoon(current);
      return;
    }
    retryMs = FIRST_RETRY_MS;
    setListening(true);
    heartbeat = setInterval(() => check(current), HEARTBEAT_MS);
    heartbeat.unref();
  }

  /** Ends the connection unless it answers a query within HEARTBEAT_MS. */
  function check(current: pg.Client): void {
    const late = setTimeout(() => lost(current), HEARTBEAT_MS);
    late.unref();
    current.query("SELECT 1").then(
      () => clearTimeout(late),
      () => {
        clearTimeout(late);
        lost(current);
      },
    );
  }

  void connect();
  return {
    async close() {
      closed = true;
      if (retry) clearTimeout(retry);
      if (heartbeat) clearInterval(heartbeat);
      const current = client;
      client = null;
      listening = false;
      if (current) await endSoon(current);
    },
  };
}
