import type { Db } from "@/lib/db";
import { logger } from "@/lib/observability/logger";
import { computePersistence } from "./compute-persistence";
import { HOUR_MS } from "./pair-persistence";
import { PersistenceSet } from "./persistence-set";

/** A claim older than this belongs to a process that died computing: another takes the hour over. */
const CLAIM_STALE_MS = 10 * 60_000;

/**
 * The pair persistence a round-running process attaches to its opportunities, held in memory.
 *
 * The first `current()` reads the newest stored set (start-up); after that a round only reads
 * memory. `refresh(now)`, which a round calls without waiting once it has published, brings the
 * set up to the hour containing `now` when an hour has completed since: it loads the set another
 * process stored for that hour, or claims the hour and computes it (computePersistence, seconds at
 * 100k pairs, in the background, between the event loop's turns), stores it and keeps it. So the
 * 30 days of history are read once an hour by one process, never inside a round.
 */
export class PairPersistenceStore {
  private latest: PersistenceSet | null = null;
  private loading: Promise<void> | undefined;
  private refreshing: Promise<void> | undefined;

  constructor(private readonly db: Db) {}

  /**
   * The set held, the newest stored one on the first call. Never fails: a round publishes without
   * persistence (every figure unknown) rather than not at all when it cannot be read, and the next
   * call tries again.
   */
  async current(): Promise<PersistenceSet | null> {
    this.loading ??= this.loadNewer().catch((error: unknown) => {
      this.loading = undefined;
      logger("ingest").error({ err: error }, "reading the stored pair persistence failed");
    });
    await this.loading;
    return this.latest;
  }

  /** Resolves once the set is up to date, or another process is computing it; one refresh at a time. */
  refresh(now: Date): Promise<void> {
    this.refreshing ??= this.bringUpToDate(now).finally(() => (this.refreshing = undefined));
    return this.refreshing;
  }

  private async bringUpToDate(now: Date): Promise<void> {
    const through = Math.floor(now.getTime() / HOUR_MS) * HOUR_MS;
    await this.current();
    if ((this.latest?.through ?? 0) >= through) return;
    await this.loadNewer();
    if ((this.latest?.through ?? 0) >= through || !(await this.claim(through, now))) return;
    try {
      const { set } = await computePersistence(this.db, through, this.latest);
      await this.store(set, now);
      this.latest = await prepared(set);
    } catch (error) {
      await this.db.pairPersistenceSet.deleteMany({ where: { through: new Date(through), pairs: null } }).catch((releasing: unknown) =>
        logger("ingest").warn({ err: releasing, through: new Date(through).toISOString() }, "releasing the claim on an hour's pair persistence failed; it is taken over once stale"),
      );
      throw error;
    }
  }

  /** Reads the newest stored set if it is newer than the one held. */
  private async loadNewer(): Promise<void> {
    const newest = await this.db.pairPersistenceSet.findFirst({
      where: { pairs: { not: null } },
      orderBy: { through: "desc" },
      select: { through: true },
    });
    if (!newest || newest.through.getTime() <= (this.latest?.through ?? 0)) return;
    const set = await readSet(this.db, newest.through);
    if (set) this.latest = await prepared(set);
  }

  /** True when this process may compute the hour: nobody claimed it, or the claim is stale. */
  private async claim(through: number, now: Date): Promise<boolean> {
    const { count } = await this.db.pairPersistenceSet.createMany({
      data: [{ through: new Date(through), claimedAt: now }],
      skipDuplicates: true,
    });
    if (count === 1) return true;
    const takenOver = await this.db.pairPersistenceSet.updateMany({
      where: { through: new Date(through), pairs: null, claimedAt: { lt: new Date(now.getTime() - CLAIM_STALE_MS) } },
      data: { claimedAt: now },
    });
    return takenOver.count === 1;
  }

  /** Stores the set on its claim and drops all but it and the newest one before it (what a delayed view may need). */
  private async store(set: PersistenceSet, now: Date): Promise<void> {
    const through = new Date(set.through);
    await this.db.pairPersistenceSet.update({ where: { through }, data: { pairs: await set.pack(), computedAt: now } });
    const before = await this.db.pairPersistenceSet.findFirst({
      where: { through: { lt: through }, pairs: { not: null } },
      orderBy: { through: "desc" },
      select: { through: true },
    });
    if (before) await this.db.pairPersistenceSet.deleteMany({ where: { through: { lt: before.through } } });
  }
}

async function readSet(db: Db, through: Date): Promise<PersistenceSet | null> {
  const row = await db.pairPersistenceSet.findUnique({ where: { through }, select: { pairs: true } });
  return row?.pairs ? await PersistenceSet.unpack(through.getTime(), row.pairs) : null;
}

/** Pairs prepared between two turns of the event loop. */
const PREPARED_PER_TURN = 10_000;

/** The set with its lookups built, a slice at a time, so neither a round nor a request waits for all of it. */
async function prepared(set: PersistenceSet): Promise<PersistenceSet> {
  for (let from = 0; from < set.size; from += PREPARED_PER_TURN) {
    set.prepare(from, from + PREPARED_PER_TURN);
    await new Promise((resolve) => setImmediate(resolve));
  }
  return set;
}

const asOfCache = new WeakMap<Db, { through: number; set: Promise<PersistenceSet | null> }>();

/**
 * The newest stored set computed no later than `at` (through ≤ at), for a view of the past (the
 * screener's delayed set) that must not show figures of hours after its moment. Kept per database
 * until a newer one is asked for, so each is read once an hour, not once a minute.
 */
export async function storedPersistenceAt(db: Db, at: Date): Promise<PersistenceSet | null> {
  const row = await db.pairPersistenceSet.findFirst({
    where: { through: { lte: at }, pairs: { not: null } },
    orderBy: { through: "desc" },
    select: { through: true },
  });
  if (!row) return null;
  const cached = asOfCache.get(db);
  if (cached?.through === row.through.getTime()) return cached.set;
  const set = readSet(db, row.through);
  asOfCache.set(db, { through: row.through.getTime(), set });
  set.catch(() => asOfCache.delete(db));
  return set;
}
