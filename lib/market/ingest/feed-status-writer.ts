import type { Db } from "@/lib/db";
import { logger } from "@/lib/observability/logger";
import type { FeedStatusBoard } from "./feed-status-board";
import { writeFeedStatus } from "./feed-status-store";

const log = logger("ingest");

/** How often the ingesting process stores its feed board for the other servers. */
export const FEED_STATUS_WRITE_MS = 5_000;

/**
 * Stores a FeedStatusBoard's figures every `intervalMs` (VenueFeedStatus), so every server reads
 * the same: one write at a time (a tick while one is in flight is skipped, the next one writes the
 * newer figures), its timer never keeps the process alive, and a failed write is logged, not thrown.
 * `stop` ends the timer and writes once more, so a clean shutdown leaves the last figures stored.
 */
export class FeedStatusWriter {
  private timer: NodeJS.Timeout | undefined;
  private inFlight: Promise<void> | undefined;
  private stopped = false;

  constructor(
    private readonly board: FeedStatusBoard,
    private readonly db: () => Promise<Db>,
    private readonly intervalMs = FEED_STATUS_WRITE_MS,
    private readonly now: () => number = Date.now,
    /** Stores the figures; feed-status-store.ts `writeFeedStatus` unless a test replaces it. */
    private readonly store: typeof writeFeedStatus = writeFeedStatus,
  ) {}

  start(): void {
    if (this.timer || this.stopped) return;
    this.timer = setInterval(() => void this.write(), this.intervalMs);
    this.timer.unref();
  }

  /** Writes the figures now unless a write is in flight (then that one's promise). */
  write(): Promise<void> {
    this.inFlight ??= this.writeOnce().finally(() => {
      this.inFlight = undefined;
    });
    return this.inFlight;
  }

  async stop(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    clearInterval(this.timer);
    this.timer = undefined;
    await this.inFlight;
    await this.writeOnce();
  }

  private async writeOnce(): Promise<void> {
    try {
      const now = this.now();
      const figures = this.board.figures(now);
      if (figures.length > 0) await this.store(await this.db(), figures, now);
    } catch (error) {
      log.error({ err: error }, "storing the feed status failed");
    }
  }
}
