import type { Db } from "@/lib/db";
import { keyModeToDb, type DbKeyMode } from "@/lib/keys/mode";
import { logger } from "@/lib/observability/logger";
import { eventsAppended, type AppendedEvents } from "./append-events";
import type { PublicEvent } from "./event-types";
import { toPublicEvent } from "./read-events";

/** An event as the feed hands it to every subscriber: read, serialised and encoded once, whoever receives it. */
export interface FeedEvent {
  sequence: bigint;
  event: PublicEvent;
  /** The log row's mode and owner (null for the market's events): whose stream may take it. */
  mode: DbKeyMode;
  userId: string | null;
  /** The event's Server-Sent Events frame (`id:`, `event:`, `data:`) as UTF-8, encoded once per event. */
  frame: Uint8Array;
}

/**
 * An event's frame as UTF-8, in a slice of Node's shared 8 KB buffer pool (Buffer.from): a new
 * ArrayBuffer per frame (TextEncoder.encode) had V8 weigh each against the external memory a
 * round's columns had just added, and advance its marking there, 5–10 ms at a time: 0.9 s of a
 * round's window in a profile, in the frames of ~3,000 events.
 */
function encodedFrame(event: PublicEvent): Uint8Array {
  return Buffer.from(sseFrame(event), "utf8");
}

const joined = new WeakMap<readonly FeedEvent[], Uint8Array>();

/**
 * The frames of `events` back to back, built once per batch (the feed hands every subscriber the
 * same array): a stream that takes the whole batch writes it as one chunk, so a round costs each
 * subscriber one write rather than one per event, and no copy of its own.
 */
export function joinedFrames(events: readonly FeedEvent[]): Uint8Array {
  let bytes = joined.get(events);
  if (!bytes) {
    bytes = concatFrames(events.map((e) => e.frame));
    joined.set(events, bytes);
  }
  return bytes;
}

/** `frames` as one buffer (the first itself when it is the only one). */
export function concatFrames(frames: readonly Uint8Array[]): Uint8Array {
  if (frames.length === 1) return frames[0]!;
  const bytes = new Uint8Array(frames.reduce((n, f) => n + f.length, 0));
  let at = 0;
  for (const frame of frames) {
    bytes.set(frame, at);
    at += frame.length;
  }
  return bytes;
}

/**
 * Takes a batch of the log's next events. `continued`: the batch goes on from the one before, the
 * same append cut in parts (EventFeed.take), so a stream judges whether its client reads by what
 * was unsent before the append's first part, as it would had the append come whole.
 */
export type FeedListener = (events: readonly FeedEvent[], continued: boolean) => void;

/**
 * How many events this process appended are made into frames and handed on at a time, the event
 * loop turning between: a round appends tens of thousands, whose frames took the serving thread
 * over a second in one piece, in the round's commit, holding back micro-batches and requests.
 */
export const TAKEN_AT_A_TIME = 1_000;

/** One subscription: where the feed stood when it began (every later event comes live), and its end. */
export interface FeedSubscription {
  position: bigint;
  close: () => void;
}

/** An event as an SSE frame: its id for Last-Event-ID, its type as the event name, the whole event as data. */
export function sseFrame(event: PublicEvent): string {
  return `id: ${event.id}\nevent: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`;
}

/**
 * The process's one reader of the event log for its live streams: while anyone subscribes, it reads
 * the rows after its position every `pollMs` (at once when this process appended some), in sequence
 * order, and hands each batch to every subscriber. Writers append under the log's advisory lock, so
 * rows appear in sequence order and following `sequence > position` skips none; events written by
 * any process (a worker's rounds, another server's sandbox tick) reach every server's streams.
 * Subscribers filter for themselves: no query per subscriber while live.
 */
export class EventFeed {
  private readonly listeners = new Set<FeedListener>();
  private position: bigint | undefined;
  private starting: Promise<bigint> | undefined;
  private timer: NodeJS.Timeout | undefined;
  private reading = false;
  /** Appends this process made, waiting to be taken in order (`take`), the first being taken. */
  private readonly appends: AppendedEvents[] = [];
  private again = false;
  /** Moved on by stop(): a take that outlived its feed's run delivers nothing more. */
  private run = 0;
  private stopWaking: (() => void) | undefined;

  constructor(
    private readonly db: () => Promise<Db>,
    private readonly pollMs: number,
    private readonly batch = 1000,
  ) {}

  /** How many subscribers the feed serves now. */
  get subscribers(): number {
    return this.listeners.size;
  }

  /**
   * Subscribes: every event after the returned position reaches `listener`, in order; the caller
   * reads what it needs up to that position from the log itself (a resume), so nothing is missed
   * or repeated between the two.
   */
  async subscribe(listener: FeedListener): Promise<FeedSubscription> {
    const started = await this.start();
    // Read and added in one synchronous step: a batch is delivered and the position moved in
    // another, so this listener gets exactly the events after `position`.
    const position = this.position ?? started;
    this.listeners.add(listener);
    return {
      position,
      close: () => {
        this.listeners.delete(listener);
        if (this.listeners.size === 0) this.stop();
      },
    };
  }

  /**
   * Reads the log now rather than at the next poll (this process has just appended). Events this
   * process appended that follow on from the feed's position are taken as given, not read back:
   * at a micro-batch's thousand events a second, reading them back was a tenth of the serving
   * thread and a round trip on every change's way out.
   */
  wake(appended?: AppendedEvents): void {
    if (this.position === undefined) return;
    if (appended) {
      // Kept while the log is being read too: what the read did not deliver is taken after it.
      this.appends.push(appended);
      if (this.appends.length === 1 && !this.reading) void this.take();
      return;
    }
    if (this.reading || this.appends.length > 0) {
      this.again = true;
      return;
    }
    clearTimeout(this.timer);
    void this.read();
  }

  /**
   * Delivers the waiting appends in order, TAKEN_AT_A_TIME events at a time with a turn of the
   * event loop between (the first part at once), while each follows on from the feed's position:
   * its events are one after another (the log's lock gives a statement's events consecutive
   * sequences) and the first the position has not passed follows it; those a read of the log
   * delivered meanwhile are passed over. At a gap, or an event of another writer between, the log
   * is read instead, from the position on.
   */
  private async take(): Promise<void> {
    const run = this.run;
    let turns = 0;
    for (let appended = this.appends[0]; appended; appended = this.appends[0]) {
      const { mode, events, range } = appended;
      const delivered = Number(this.position! + 1n - range.first);
      if (delivered < 0 || range.count !== events.length || range.last - range.first + 1n !== BigInt(events.length)) {
        this.again = true;
        break;
      }
      const dbMode = keyModeToDb(mode);
      for (let from = delivered; from < events.length; from += TAKEN_AT_A_TIME) {
        if (turns++ > 0) {
          await new Promise((resolve) => setImmediate(resolve));
          // Stopped meanwhile (no one subscribes): what is left belongs to no one.
          if (this.run !== run) return;
        }
        const part = events.slice(from, from + TAKEN_AT_A_TIME).map((event, i): FeedEvent => {
          const sequence = range.first + BigInt(from + i);
          const publicEvent = toPublicEvent({ sequence, mode: dbMode, type: event.type, createdAt: range.createdAt, data: event.data });
          return { sequence, event: publicEvent, frame: encodedFrame(publicEvent), mode: dbMode, userId: null };
        });
        this.deliver(part, from > delivered);
      }
      this.appends.shift();
    }
    this.appends.length = 0;
    if (this.again) {
      this.again = false;
      clearTimeout(this.timer);
      void this.read();
    }
  }

  /** Hands `events`, the log's next ones, to every subscriber, and moves the position past them. */
  private deliver(events: readonly FeedEvent[], continued = false): void {
    this.position = events.at(-1)!.sequence;
    for (const listener of this.listeners) {
      try {
        listener(events, continued);
      } catch (error) {
        logger("events").error({ err: error }, "an event stream failed to take events");
      }
    }
  }

  private start(): Promise<bigint> {
    if (this.position !== undefined) return Promise.resolve(this.position);
    if (!this.starting) {
      // A feed that starts follows from the newest event: history is for the subscriber to replay.
      this.starting = (async () => {
        const newest = await (await this.db()).marketEvent.findFirst({ orderBy: { sequence: "desc" }, select: { sequence: true } });
        this.position = newest?.sequence ?? 0n;
        this.stopWaking = eventsAppended().listen((appended) => this.wake(appended));
        this.schedule();
        return this.position;
      })();
      this.starting.then(
        () => (this.starting = undefined),
        () => (this.starting = undefined),
      );
    }
    return this.starting;
  }

  /** With no one subscribed the feed stops reading and forgets its position: the next subscriber starts it afresh. */
  private stop() {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.stopWaking?.();
    this.stopWaking = undefined;
    this.position = undefined;
    this.appends.length = 0;
    this.run += 1;
  }

  private schedule(delay = this.pollMs) {
    clearTimeout(this.timer);
    if (this.position === undefined) return;
    this.timer = setTimeout(() => void this.read(), delay);
    this.timer.unref();
  }

  private async read(): Promise<void> {
    if (this.reading || this.position === undefined) return;
    if (this.appends.length > 0) {
      // Taking this process's appends: the log is read once they are delivered.
      this.again = true;
      return;
    }
    this.reading = true;
    let full = false;
    try {
      const from = this.position;
      const rows = await (await this.db()).marketEvent.findMany({ where: { sequence: { gt: from } }, orderBy: { sequence: "asc" }, take: this.batch });
      // Stopped (and perhaps restarted) while reading: this batch belongs to no one now.
      if (this.position !== from || rows.length === 0) return;
      const events = rows.map((row): FeedEvent => {
        const event = toPublicEvent(row);
        return { sequence: row.sequence, event, frame: encodedFrame(event), mode: row.mode, userId: row.userId };
      });
      full = rows.length === this.batch;
      this.deliver(events);
    } catch (error) {
      logger("events").error({ err: error }, "reading the event log failed");
    } finally {
      this.reading = false;
      const now = full || this.again;
      this.again = false;
      this.schedule(now ? 0 : this.pollMs);
      if (this.appends.length > 0) void this.take();
    }
  }
}
