import { randomBytes } from "node:crypto";
import type { Redis } from "ioredis";
import { processSingleton } from "@/lib/singleton";
import type { KeyChange } from "./key-change";
import { listenForKeyChanges, type PostgresKeyChanges } from "./key-events-postgres";
import { logger } from "@/lib/observability/logger";

const log = logger("keys");

export type { KeyChange } from "./key-change";

type Listener = (change: KeyChange) => void;

const CHANNEL = "fods:key-changes";
const ACK_TIMEOUT_MS = 500;

/**
 * Tells every cache of verified keys that a key changed. Listeners in this process run
 * synchronously; with REDIS_URL, other processes are told through Redis pub/sub and `publish`
 * waits (up to 500 ms) until each of them acknowledges, so a revocation is in force everywhere
 * before the revoke call returns. On PostgreSQL the change also goes out over LISTEN/NOTIFY, so
 * it reaches every server within a second while Redis is away (or not configured).
 */
export class KeyEventBus {
  private readonly listeners = new Set<Listener>();
  private readonly processId = randomBytes(8).toString("hex");
  private bridge: Promise<RedisBridge> | undefined;
  private postgres: PostgresKeyChanges | undefined;

  subscribe(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Connects to Redis for cross-process delivery; call once at boot when REDIS_URL is set. */
  connect(redisUrl: string): Promise<void> {
    this.bridge ??= RedisBridge.open(redisUrl, (change) => this.deliverLocally(change));
    return this.bridge.then(() => undefined);
  }

  /** Carries changes over PostgreSQL LISTEN/NOTIFY too; call once at boot on PostgreSQL. */
  listenPostgres(databaseUrl: string): Promise<void> {
    this.postgres ??= listenForKeyChanges(databaseUrl, this.processId, (change) => this.deliverLocally(change));
    return this.postgres.ready;
  }

  async publish(change: KeyChange): Promise<void> {
    this.deliverLocally(change);
    // Both ways at once: NOTIFY is not held up by a Redis that is slow to fail.
    await Promise.all([this.publishThroughRedis(change), this.publishThroughPostgres(change)]);
  }

  async close(): Promise<void> {
    if (this.bridge) await (await this.bridge).close().catch((error: unknown) => log.warn({ err: error }, "closing the Redis connections for key changes failed"));
    this.bridge = undefined;
    await this.postgres?.stop();
    this.postgres = undefined;
  }

  private async publishThroughRedis(change: KeyChange) {
    if (!this.bridge) return;
    try {
      const bridge = await this.bridge;
      // A known outage was logged once; the change goes over PostgreSQL, or waits out the cache lifetime.
      if (bridge.down) return;
      await bridge.publish(change);
    } catch (error) {
      // Other processes still drop the entry when its short cache lifetime ends.
      log.warn({ err: error, keyId: change.keyId }, `key change not delivered through Redis: ${(error as Error).message}`);
    }
  }

  private async publishThroughPostgres(change: KeyChange) {
    if (!this.postgres) return;
    try {
      await this.postgres.notify(change);
    } catch (error) {
      log.warn({ err: error, keyId: change.keyId }, `key change not delivered through PostgreSQL: ${(error as Error).message}`);
    }
  }

  private deliverLocally(change: KeyChange) {
    for (const listener of this.listeners) listener(change);
  }
}

class RedisBridge {
  private readonly processId = randomBytes(8).toString("hex");
  private readonly waiting = new Map<string, () => void>();
  /** The clients that lost Redis and have not reconnected yet. */
  private readonly lost = new Set<Redis>();
  private closing = false;

  private constructor(
    private readonly pub: Redis,
    private readonly sub: Redis,
  ) {
    for (const client of [pub, sub]) this.watch(client);
  }

  /** True while either connection is lost: publishing would only fail, after ioredis's retry. */
  get down(): boolean {
    return this.lost.size > 0;
  }

  static async open(url: string, deliver: Listener): Promise<RedisBridge> {
    const { Redis } = await import("ioredis");
    // No offline queue: while Redis is away a command fails at once instead of waiting for a reconnection.
    const options = { lazyConnect: true, maxRetriesPerRequest: 1, connectTimeout: 2_000, enableOfflineQueue: false };
    const bridge = new RedisBridge(new Redis(url, options), new Redis(url, options));
    await Promise.all([bridge.pub.connect(), bridge.sub.connect()]);
    bridge.sub.on("message", (channel: string, message: string) => {
      if (channel === CHANNEL) {
        const { from, nonce, change } = JSON.parse(message) as { from: string; nonce: string; change: KeyChange };
        if (from === bridge.processId) return;
        deliver(change);
        // A lost acknowledgement only makes the sender wait out ACK_TIMEOUT_MS; the change itself arrived.
        bridge.pub.publish(`${CHANNEL}:ack:${nonce}`, bridge.processId).catch((error: unknown) => log.warn({ err: error, keyId: change.keyId }, "acknowledging a key change through Redis failed"));
      } else {
        bridge.waiting.get(channel)?.();
      }
    });
    await bridge.sub.subscribe(CHANNEL);
    return bridge;
  }

  async publish(change: KeyChange): Promise<void> {
    const nonce = randomBytes(8).toString("hex");
    const ackChannel = `${CHANNEL}:ack:${nonce}`;
    let acks = 0;
    let expected = Infinity;
    let done!: () => void;
    const allAcked = new Promise<void>((resolve) => (done = resolve));
    this.waiting.set(ackChannel, () => {
      if (++acks >= expected) done();
    });
    await this.sub.subscribe(ackChannel);
    try {
      const receivers = await this.pub.publish(CHANNEL, JSON.stringify({ from: this.processId, nonce, change }));
      expected = receivers - 1; // our own subscriber hears it too, and does not answer
      if (acks >= expected) return;
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([allAcked, new Promise<void>((resolve) => (timer = setTimeout(resolve, ACK_TIMEOUT_MS)))]);
      clearTimeout(timer);
    } finally {
      this.waiting.delete(ackChannel);
      await this.sub.unsubscribe(ackChannel);
    }
  }

  async close(): Promise<void> {
    this.closing = true;
    this.pub.disconnect();
    this.sub.disconnect();
  }

  /**
   * ioredis emits "error" on every failed reconnection attempt, and an unheard "error" is printed
   * with its stack each time. One line when the bridge loses Redis and one when both connections
   * are back; ioredis keeps reconnecting (and subscribing again) on its own.
   */
  private watch(client: Redis) {
    const lose = (reason: string) => {
      if (this.closing || this.lost.has(client)) return;
      if (this.lost.size === 0) log.warn(`[key-events] Redis unreachable (${reason}); key changes go over PostgreSQL, if configured, until it is back`);
      this.lost.add(client);
    };
    client.on("error", (error: Error) => lose(error.message));
    client.on("close", () => lose("connection closed"));
    client.on("ready", () => {
      if (!this.lost.delete(client) || this.lost.size > 0) return;
      log.warn("[key-events] Redis reachable again");
    });
  }
}

/** The process's bus, shared by the API (server.ts) and the account pages (Next's bundle). */
export function keyEvents(): KeyEventBus {
  return processSingleton("key-events", () => new KeyEventBus());
}
