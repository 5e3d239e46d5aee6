import type { Db } from "@/lib/db";
import { logger } from "@/lib/observability/logger";
import type { CarryColumns } from "./carry-columns";
import { CarrySnapshot } from "./carry-query";
import { loadCarrySet, loadCarryVersion } from "./carry-store";

const log = logger("market");

/**
 * The stored carry set held in memory, so GET /v1/carry-opportunities never queries the database.
 * The first read loads it; after that its version is checked at most every `pollMs`, in the
 * background (a request never waits for the check), and the set is loaded again when it moved.
 * Before any carry set is published it serves an empty one of no moment.
 */
export class LiveCarry {
  private snapshot: Promise<CarrySnapshot> | undefined;
  private version: number | null = null;
  private checkedAt = 0;
  private checking: Promise<void> | undefined;

  constructor(
    private readonly db: () => Promise<Db>,
    private readonly pollMs = 2_000,
  ) {}

  current(): Promise<CarrySnapshot> {
    if (!this.snapshot) {
      const loading = this.load();
      this.snapshot = loading;
      loading.catch(() => {
        if (this.snapshot === loading) this.snapshot = undefined;
      });
    } else if (Date.now() - this.checkedAt > this.pollMs && !this.checking) {
      this.checking = this.refresh().finally(() => (this.checking = undefined));
    }
    return this.snapshot;
  }

  /** Loads the set again at the next read: this process published one it does not hold (the offline sample). */
  invalidate(): void {
    this.snapshot = undefined;
  }

  /**
   * Serves the carry set this process's round just stored, as it is: reading back and parsing the
   * set it already holds would cost this process the most of any, every round.
   */
  hold(version: number, asOf: Date, columns: CarryColumns): void {
    this.version = version;
    this.checkedAt = Date.now();
    this.snapshot = Promise.resolve(new CarrySnapshot(columns, asOf.toISOString(), false));
  }

  private async load(): Promise<CarrySnapshot> {
    this.checkedAt = Date.now();
    const set = await loadCarrySet(await this.db());
    this.version = set?.version ?? null;
    return set ? new CarrySnapshot(set.columns, set.asOf.toISOString(), set.sample) : CarrySnapshot.empty();
  }

  private async refresh(): Promise<void> {
    this.checkedAt = Date.now();
    try {
      const version = await loadCarryVersion(await this.db());
      if (version === this.version) return;
      const next = await this.load();
      this.snapshot = Promise.resolve(next);
    } catch (error) {
      // The set held stays served; the next read past the interval checks again.
      log.warn({ err: error }, "checking the carry set's version failed");
    }
  }
}
