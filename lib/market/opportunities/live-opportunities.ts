import type { Db } from "@/lib/db";
import { listenOnChannel } from "@/lib/db/listen-channel";
import type { OpportunityColumns } from "./encoding/columns";
import { logger } from "@/lib/observability/logger";
import { OpportunitySnapshot } from "./opportunity-query";
import { load, loadPatchesSince, OPPORTUNITY_SET_CHANNEL, ownPublishesSettled } from "./store";
import type { PartialAssets } from "./pair-scope";

const log = logger("market");

/** A micro-batch as this process's publisher committed it (MicroBatchPublisher's PublishedBatch). */
export interface AppliedBatch {
  version: number;
  previousVersion: number;
  bases: ReadonlySet<string>;
  /** Of `bases`, the assets replaced in part (pair-scope.ts). */
  partial?: PartialAssets;
  items: OpportunityColumns;
}

/** A round's set as this process published it (run-ingestion-round.ts). */
export interface AppliedRound {
  version: number;
  /** The round's ranked set. */
  set: OpportunityColumns;
  /**
   * The assets whose pairs the round kept as micro-batches published them while it ran
   * (PatchedSet.carrying), and all of their current pairs in set order, or the promise of them
   * while they are gathered in slices: spliced into `set`, replacing its pairs of those assets.
   */
  carried?: { bases: ReadonlySet<string>; pairs: OpportunityColumns | Promise<OpportunityColumns> };
  asOf: Date;
}

/** How often a reader that hears the set's notifications still checks its version: the safety net, should one be missed. */
export const NOTIFIED_POLL_MS = 15_000;

/**
 * The live opportunity set held in memory, so GET /v1/opportunities never queries the database.
 * It takes the sets this process publishes as they commit (`applyRound`, a round's whole set;
 * `applyBatch`, a micro-batch's pairs, spliced in by asset: OpportunitySnapshot.spliced), reloads when told (`invalidate`), and
 * notices what other processes publish by the set's notification (`listen`, PostgreSQL) or by
 * checking OpportunitySet.version at most every `pollMs`, in the background: a request never
 * waits for that check. A newer version is caught up on by its patches when they lead on from
 * the version held, else by loading the whole set.
 */
export class LiveOpportunities {
  private snapshot: Promise<OpportunitySnapshot> | undefined;
  /** The snapshot `snapshot` resolved to, at `version`. */
  private held: OpportunitySnapshot | undefined;
  private version = -1;
  private checkedAt = 0;
  private checking: Promise<void> | undefined;
  private checkAgain = false;
  /** A round's set this process published, its items being built (applyRound). */
  private applying: { version: number; done: Promise<void> } | undefined;

  constructor(
    private readonly db: () => Promise<Db>,
    private pollMs = 2_000,
  ) {}

  current(): Promise<OpportunitySnapshot> {
    if (!this.snapshot) {
      const loading = this.load();
      this.snapshot = loading;
      loading.catch(() => {
        if (this.snapshot === loading) this.snapshot = undefined;
      });
    } else if (Date.now() - this.checkedAt > this.pollMs && !this.checking) {
      void this.refresh();
    }
    return this.snapshot;
  }

  invalidate(): void {
    this.snapshot = undefined;
    this.held = undefined;
  }

  /** The version of the set held; -1 before one was loaded. */
  get heldVersion(): number {
    return this.held ? this.version : -1;
  }

  /**
   * Holds a round's set as published, rather than reading and decoding it from the database again:
   * served from its columns (OpportunitySnapshot.rankedInSlices), with the pairs of the assets the
   * round carried from batches taken from theirs. Its entries and groups by asset are built in
   * slices, this thread serving meanwhile from the set held until then. Resolves once it is held.
   * The columns must not change while it is served.
   */
  applyRound(round: AppliedRound, sliceMs?: number): Promise<void> {
    if ((this.held && this.version >= round.version) || (this.applying && this.applying.version >= round.version)) return this.applying?.done ?? Promise.resolve();
    // Nothing to catch up on meanwhile: the version check waits for the set being built.
    this.checkedAt = Date.now();
    const { set, carried } = round;
    const asOf = round.asOf.toISOString();
    const built = async (): Promise<OpportunitySnapshot> =>
      OpportunitySnapshot.rankedInSlices(set, asOf, false, sliceMs, carried && { bases: carried.bases, pairs: await carried.pairs });
    const done = Promise.resolve()
      .then(built)
      .then((snapshot) => {
        if (this.applying?.version === round.version) this.applying = undefined;
        if (this.held && this.version >= round.version) return;
        this.replace(snapshot, round.version);
        this.checkedAt = Date.now();
      });
    this.applying = { version: round.version, done };
    // Nothing held yet: the first answer waits for this set rather than reading it from the database.
    if (!this.snapshot) this.snapshot = done.then(() => this.held ?? this.load());
    return done;
  }

  /**
   * This process's micro-batch, committed: spliced into the set held when it is the set it was
   * published on (once built, when that is the round's set being built); else the set is caught up
   * on from the database.
   */
  applyBatch(batch: AppliedBatch): void {
    const applying = this.applying;
    // On the round's set, or on a batch on it: spliced, in order, once the round's set is built.
    if (applying && batch.previousVersion >= applying.version) {
      void applying.done.then(() => this.splice(batch));
      return;
    }
    this.splice(batch);
  }

  private splice(batch: AppliedBatch): void {
    const held = this.held;
    if (held && this.version === batch.previousVersion) {
      this.replace(held.spliced(batch.bases, batch.items, batch.partial), batch.version);
    } else if (this.snapshot) void this.refresh();
  }

  /**
   * Hears every set another process publishes on `databaseUrl` (PostgreSQL's LISTEN on the set's
   * channel, notified at commit) and catches up at once; the version check slows to
   * NOTIFIED_POLL_MS, left as the safety net for a missed notification.
   */
  listen(databaseUrl: string): { ready: Promise<void>; stop: () => Promise<void> } {
    this.pollMs = Math.max(this.pollMs, NOTIFIED_POLL_MS);
    const listener = listenOnChannel({
      databaseUrl,
      channel: OPPORTUNITY_SET_CHANNEL,
      onNotification: (payload) => this.notified(Number(payload)),
      // Back after an outage: what was published meanwhile is caught up on.
      onUp: (failures) => {
        if (failures > 0 && this.snapshot) void this.refresh();
      },
      onDown: (error, { retryInMs }) => log.error({ err: error, retryInMs }, `listening for published opportunity sets failed; again in ${retryInMs} ms`),
      onCloseError: (error) => log.warn({ err: error }, "closing the connection listening for published opportunity sets failed"),
    });
    return { ready: listener.ready, stop: () => listener.stop() };
  }

  /**
   * Told that `version` was published (the set's notification). The notice of this process's own
   * publish often comes before that publish answers and is applied here: it is looked at once
   * that has happened, so this process never reads its own set back from the database.
   */
  notified(version: number): void {
    void ownPublishesSettled().then(() => {
      if (!this.snapshot || version === this.version || version === this.applying?.version) return;
      void this.refresh();
    });
  }

  /** Catches up with the published set: once at a time, and once more when asked again meanwhile. */
  refresh(): Promise<void> {
    if (this.checking) {
      this.checkAgain = true;
      return this.checking;
    }
    const run = async () => {
      try {
        do {
          this.checkAgain = false;
          await this.catchUp();
        } while (this.checkAgain);
      } catch (error) {
        log.error({ err: error }, "checking the opportunity set failed");
      } finally {
        this.checking = undefined;
      }
    };
    this.checking = run();
    return this.checking;
  }

  private async catchUp(): Promise<void> {
    // This process's own publishes are applied as they answer, and a round of its being built is caught up on from there.
    await ownPublishesSettled();
    await this.applying?.done;
    const db = await this.db();
    const held = this.held;
    const since = held ? await loadPatchesSince(db, this.version) : null;
    this.checkedAt = Date.now();
    if (held && since) {
      // This process applied a batch of its own meanwhile: look again from there, rather than load
      // the whole set (its own publish's notification often comes before its batch is applied).
      if (this.held !== held) {
        this.checkAgain = true;
        return;
      }
      if (since.patches.length === 0) return;
      let snapshot = held;
      for (const patch of since.patches) snapshot = snapshot.spliced(new Set(patch.bases), patch.columns, patch.partial);
      this.replace(snapshot, since.head.version);
      return;
    }
    const next = this.load();
    await next;
    this.snapshot = next;
  }

  private replace(snapshot: OpportunitySnapshot, version: number): void {
    this.held = snapshot;
    this.version = version;
    this.snapshot = Promise.resolve(snapshot);
  }

  private async load(): Promise<OpportunitySnapshot> {
    const set = await load(await this.db());
    // A set this process published while this read was under way is newer: it stands.
    const newerHeld = () => this.held !== undefined && this.version > (set?.version ?? 0);
    if (newerHeld()) return this.held!;
    // In slices: a server that does not ingest takes every round's set here, and building 350,000
    // items at once held its requests and streams for 3–5 s on a loaded 2-core machine.
    const snapshot = set ? await OpportunitySnapshot.storedInSlices(set.columns, set.asOf.toISOString(), set.sample) : new OpportunitySnapshot([], null, false);
    if (newerHeld()) return this.held!;
    this.version = set?.version ?? 0;
    this.held = snapshot;
    this.checkedAt = Date.now();
    return snapshot;
  }
}
