import type { Db } from "@/lib/db";
import { itemsOf } from "./encoding/columns";
import { logger } from "@/lib/observability/logger";
import { OpportunitySnapshot } from "./opportunity-query";
import { load, loadHead } from "./store";

/**
 * The live opportunity set held in memory, so GET /v1/opportunities never queries the database.
 * It reloads when told (`invalidate`, after an ingestion round in this process) and notices
 * rounds written by other processes by checking OpportunitySet.version at most every `pollMs`,
 * in the background: a request never waits for that check.
 */
export class LiveOpportunities {
  private snapshot: Promise<OpportunitySnapshot> | undefined;
  private version = -1;
  private checkedAt = 0;
  private checking = false;

  constructor(
    private readonly db: () => Promise<Db>,
    private readonly pollMs = 2_000,
  ) {}

  current(): Promise<OpportunitySnapshot> {
    if (!this.snapshot) {
      this.snapshot = this.load();
      this.snapshot.catch(() => (this.snapshot = undefined));
    } else if (Date.now() - this.checkedAt > this.pollMs && !this.checking) {
      void this.checkVersion();
    }
    return this.snapshot;
  }

  invalidate(): void {
    this.snapshot = undefined;
  }

  private async checkVersion() {
    this.checking = true;
    try {
      const set = await loadHead(await this.db());
      this.checkedAt = Date.now();
      if ((set?.version ?? 0) !== this.version) {
        const next = this.load();
        await next;
        this.snapshot = next;
      }
    } catch (error) {
      logger("market").error({ err: error }, "checking the opportunity set failed");
    } finally {
      this.checking = false;
    }
  }

  private async load(): Promise<OpportunitySnapshot> {
    const set = await load(await this.db());
    this.version = set?.version ?? 0;
    this.checkedAt = Date.now();
    return new OpportunitySnapshot(set ? itemsOf(set.columns) : [], set?.asOf.toISOString() ?? null, set?.sample ?? false);
  }
}
