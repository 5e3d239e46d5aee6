import type { StreamFields, StreamUpdate } from "../venues/streams/stream-protocol";
import { changeIsNews, PRICE_FIELDS, refreshPhase, refreshTurnCame } from "./price-news";

/** When a market's stream state crosses to the serving thread (the publisher's PriceConflation settings). */
export interface ConflationRule {
  /** PUBLISH_PRICE_MOVE_BPS: a mark or index price this far from the forwarded one goes at once. */
  moveBps: number;
  /** PUBLISH_PRICE_REFRESH_MS: every market's latest state goes at least once in this period (0: only with news). */
  refreshMs: number;
}

/** One market's state as forwarded: every field its stream carried so far, the newest venue time and arrival. */
export interface ConflatedUpdate extends StreamUpdate {
  receivedAt: number;
}

const STREAM_FIELDS = ["fundingRate", "predictedFundingRate", "nextFundingAt", "markPrice", "indexPrice"] as const satisfies readonly (keyof StreamFields)[];
/** The fields whose every change goes at once: the funding ones (prices go past a move). */
const FUNDING_FIELDS = STREAM_FIELDS.filter((field) => !(PRICE_FIELDS as readonly string[]).includes(field));

interface Held {
  /** Every field the stream carried for the market, the last value of each. */
  latest: StreamFields;
  venueTime: number | null;
  receivedAt: number;
  /** What was last forwarded; undefined before the first forward. */
  forwarded: StreamFields | undefined;
  /** The latest state is news against what was forwarded: it goes in the next take. */
  news: boolean;
  phase: number;
  /** The resync the market was last forwarded after (`resync`). */
  epoch: number;
}

/**
 * One venue stream's markets between the frames and the serving thread: each frame's fields are
 * merged into their market's latest state (last wins, the newest venue time kept), and `take` hands
 * over the markets whose state is news against what was last handed over (a funding field changed,
 * a price appeared or went, or moved by `moveBps`: price-news.ts, the publisher's own rule) and
 * every other market whose turn in the refresh period came, changed or not. A price that moves a
 * little in every frame thus crosses once a refresh period instead of thousands of times, which the
 * publisher would have held back anyway; the refresh of unchanged markets also repairs whatever the
 * round's REST snapshot (the feeds' base each round) said differently from the stream.
 *
 * Pure: the caller gives the time, so tests drive it directly.
 */
export class StreamConflation {
  private readonly held = new Map<string, Held>();
  private lastTakeAt: number | undefined;
  private epoch = 0;

  constructor(private readonly rule: ConflationRule) {}

  /** Merges one decoded update into its market's latest state. */
  offer(update: StreamUpdate, receivedAt: number): void {
    let held = this.held.get(update.venueMarketId);
    if (!held) {
      held = { latest: {}, venueTime: null, receivedAt, forwarded: undefined, news: true, phase: refreshPhase(update.venueMarketId), epoch: this.epoch };
      this.held.set(update.venueMarketId, held);
    }
    for (const field of STREAM_FIELDS) {
      const value = update.fields[field];
      // What the merge would refuse anyway (a non-finite number) must not count as news in every frame.
      if (value === undefined || (value !== null && !Number.isFinite(value))) continue;
      held.latest[field] = value;
    }
    if (update.venueTime !== null && (held.venueTime === null || update.venueTime > held.venueTime)) held.venueTime = update.venueTime;
    held.receivedAt = Math.max(held.receivedAt, receivedAt);
    if (held.epoch !== this.epoch) {
      held.epoch = this.epoch;
      held.news = true;
    }
    if (!held.news && held.forwarded) held.news = changeIsNews(held.forwarded, held.latest, FUNDING_FIELDS, this.rule.moveBps);
  }

  /**
   * The stream is live again after it was not (the feeds polled the venue meanwhile, so what they
   * hold is the poll's, not what was forwarded): each market's next update goes at once, news or not.
   */
  resync(): void {
    this.epoch++;
  }

  /**
   * The markets to forward at `now`: those with news, and those whose refresh turn came since the
   * last take (the first take refreshes nothing: every market is news then). Each is copied, so
   * later offers do not change what was handed over.
   */
  take(now: number): ConflatedUpdate[] {
    const since = this.lastTakeAt ?? now;
    this.lastTakeAt = now;
    const out: ConflatedUpdate[] = [];
    for (const [venueMarketId, held] of this.held) {
      if (!held.news && !refreshTurnCame(held.phase, since, now, this.rule.refreshMs)) continue;
      const fields = { ...held.latest };
      held.forwarded = fields;
      held.news = false;
      out.push({ venueMarketId, fields: { ...fields }, venueTime: held.venueTime, receivedAt: held.receivedAt });
    }
    return out;
  }

  /** Forgets the markets no longer listed (the round's new list). */
  keepOnly(venueMarketIds: Iterable<string>): void {
    const listed = new Set(venueMarketIds);
    for (const id of this.held.keys()) if (!listed.has(id)) this.held.delete(id);
  }

  /** Markets held. */
  get size(): number {
    return this.held.size;
  }
}
