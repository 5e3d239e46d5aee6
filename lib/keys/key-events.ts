import { randomBytes } from "node:crypto";
import type { Redis } from "ioredis";
import { processSingleton } from "@/lib/singleton";

/** Something about a key, or about every key of a user (a tier change), is no longer true. */
export interface KeyChange {
  keyId?: string;
  userId?: string;
}

type Listener = (change: KeyChange) => void;

const CHANNEL = "fods:key-changes";
const ACK_TIMEOUT_MS = 500;

/**
 * Tells every cache of verified keys that a key changed. Listeners in this process run
 * synchronously; with REDIS_URL, other processes are told through Redis pub/sub and `publish`
 * waits (up to 500 ms) until each of them acknowledges, so a revocation is in force everywhere
 * before the revoke call returns.
 */
export class KeyEventBus {
  private readonly listeners = new Set<Listener>();
  private bridge: Promise<RedisBridge> | undefined;

  subscribe(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Connects to Redis for cross-process delivery; call once at boot when REDIS_URL is set. */
  connect(redisUrl: string): Promise<void> {
    this.bridge ??= RedisBridge.open(redisUrl, (change) => this.deliverLocally(change));
    return this.bridge.then(() => undefined);
  }

  async publish(change: KeyChange): Promise<void> {
    this.deliverLocally(change);
    if (!this.bridge) return;
    try {
      await (await this.bridge).publish(change);
    } catch (error) {
      // Other processes still drop the entry when its short cache lifetime ends.
      console.warn(`key change not delivered through Redis: ${(error as Error).message}`);
    }
  }

  async close(): Promise<void> {
    if (this.bridge) await (await this.bridge).close().catch(() => undefined);
    this.bridge = undefined;
  }

  private deliverLocally(change: KeyChange) {
    for (const listener of this.listeners) listener(change);
  }
}

class RedisBridge {
  private readonly processId = randomBytes(8).toString("hex");
  private readonly waiting = new Map<string, () => void>();

  private constructor(
    private readonly pub: Redis,
    private readonly sub: Redis,
  ) {}

  static async open(url: string, deliver: Listener): Promise<RedisBridge> {
    const { Redis } = await import("ioredis");
    const options = { lazyConnect: true, maxRetriesPerRequest: 1, connectTimeout: 2_000 };
    const bridge = new RedisBridge(new Redis(url, options), new Redis(url, options));
    await Promise.all([bridge.pub.connect(), bridge.sub.connect()]);
    bridge.sub.on("message", (channel: string, message: string) => {
      if (channel === CHANNEL) {
        const { from, nonce, change } = JSON.parse(message) as { from: string; nonce: string; change: KeyChange };
        if (from === bridge.processId) return;
        deliver(change);
        void bridge.pub.publish(`${CHANNEL}:ack:${nonce}`, bridge.processId);
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
    this.pub.disconnect();
    this.sub.disconnect();
  }
}

/** The process's bus, shared by the API (server.ts) and the account pages (Next's bundle). */
export function keyEvents(): KeyEventBus {
  return processSingleton("key-events", () => new KeyEventBus());
}
