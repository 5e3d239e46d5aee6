import pg from "pg";

const RETRY_MS = [1_000, 2_000, 5_000, 10_000, 30_000];

export interface ChannelListener {
  /** Resolves once LISTEN is in force, or the first attempt failed (it is retried meanwhile). */
  ready: Promise<void>;
  /** Runs a statement on the listening connection (a NOTIFY); rejects while it is down. */
  query(text: string, values: unknown[]): Promise<void>;
  stop(): Promise<void>;
}

export interface ChannelOptions {
  databaseUrl: string;
  /** The channel's name: an identifier (no dash, lower case). */
  channel: string;
  onNotification: (payload: string | undefined) => void;
  /** The connection failed; `failures` before this one in the same outage, `retryInMs` until the next attempt. */
  onDown: (error: unknown, outage: { failures: number; retryInMs: number }) => void;
  /** LISTEN is in force again after `failures` failed attempts (0 on the first success). */
  onUp?: (failures: number) => void;
  /** Closing a connection on stop, or one nobody listens on any more, failed. */
  onCloseError: (error: unknown) => void;
}

/**
 * One PostgreSQL connection LISTENing on a channel for as long as the process runs: a lost
 * connection is opened again with backoff (1 s to 30 s), and the callbacks say what happened, so
 * each user logs it in its own words. Stopped while connecting, the new connection is closed.
 */
export function listenOnChannel(options: ChannelOptions): ChannelListener {
  let client: pg.Client | undefined;
  let listening = false;
  let stopped = false;
  let failures = 0;
  let retry: NodeJS.Timeout | undefined;
  let firstAttempt!: () => void;
  const ready = new Promise<void>((resolve) => (firstAttempt = resolve));

  // A late error of a connection given up is not news: only the outage is reported.
  const abandon = (connection: pg.Client) => {
    connection.removeAllListeners();
    connection.on("error", () => undefined);
  };

  const connect = async () => {
    const connection = new pg.Client({ connectionString: options.databaseUrl });
    client = connection;
    connection.on("notification", (message) => {
      if (message.channel === options.channel) options.onNotification(message.payload);
    });
    connection.on("error", (error) => reconnect(connection, error));
    connection.on("end", () => reconnect(connection, new Error("the connection ended")));
    try {
      await connection.connect();
      await connection.query(`LISTEN ${options.channel}`);
      if (client !== connection) {
        // Stopped (or replaced) while connecting: this connection is nobody's.
        abandon(connection);
        await connection.end().catch(options.onCloseError);
        return;
      }
      options.onUp?.(failures);
      listening = true;
      failures = 0;
    } catch (error) {
      reconnect(connection, error);
    } finally {
      firstAttempt();
    }
  };

  const reconnect = (connection: pg.Client, error: unknown) => {
    if (stopped || client !== connection) return;
    client = undefined;
    listening = false;
    abandon(connection);
    connection.end().catch(() => undefined); // nor is its failing to end: the outage is reported below
    const delay = RETRY_MS[Math.min(failures, RETRY_MS.length - 1)]!;
    options.onDown(error, { failures, retryInMs: delay });
    failures += 1;
    retry = setTimeout(() => void connect(), delay);
    retry.unref();
  };

  void connect();
  return {
    ready,
    async query(text, values) {
      const connection = client;
      if (!connection || !listening) throw new Error("not connected to PostgreSQL");
      await connection.query(text, values);
    },
    async stop() {
      stopped = true;
      clearTimeout(retry);
      const connection = client;
      client = undefined;
      if (!connection) return;
      abandon(connection);
      await connection.end().catch(options.onCloseError);
    },
  };
}
