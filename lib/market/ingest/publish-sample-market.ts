import type { Db } from "@/lib/db";
import { computeOpportunities } from "../opportunities/rank-opportunities";
import { loadHead, publish } from "../opportunities/store";
import { computePersistence } from "../persistence/compute-persistence";
import { HOUR_MS } from "../persistence/pair-persistence";
import { readSampleHistory } from "../sample/sample-history";
import { replaySampleMarket } from "../sample/replay-sample-market";
import { readSampleSpotLegs } from "../sample/sample-spot-legs";
import { publishCarrySet } from "../carry/carry-store";
import { storeSampleHistory } from "./store-sample-history";

/**
 * Offline first run: when no opportunity set was ever published (no live round completed, no
 * sample loaded), parse the bundled venue responses through the real connectors and publish the
 * result with `sample: true`. The first live round replaces it. Before publishing, the sample's
 * recorded funding history is stored (source "sample", ending at the sample's as-of; see
 * sample-history.ts; each venue's rows go when its real data arrives, removeSampleHistory), and the opportunities carry the persistence computed from it, so a fresh
 * install has history, persistence and historical simulations before any network access; and the
 * sample's carry set, its perpetuals against the recorded spot answers (sample-spot-legs.ts). Returns
 * how many opportunities it published, or null when a set already existed.
 */
export async function publishSampleIfNeverLive(db: Db, onPublished?: () => void): Promise<number | null> {
  if (await loadHead(db)) return null;
  // Each snapshot keeps its own recording's time (replaySampleMarket), so rows say how old they
  // are and legs recorded on different days get no price spread.
  const { snapshots } = await replaySampleMarket();
  // The oldest recording's time, not now: the sample must never pass for fresh data.
  const asOf = new Date(Math.min(...snapshots.map((s) => s.observedAt)));
  await storeSampleHistory(db, await readSampleHistory(asOf.getTime()));
  const { set } = await computePersistence(db, Math.floor(asOf.getTime() / HOUR_MS) * HOUR_MS, null);
  const { opportunities } = computeOpportunities(snapshots, { persistence: set });
  await publish(db, opportunities, { asOf, sample: true });
  // Its carry set beside it, from the sample's spot recordings; the first live round's carry set replaces it.
  await publishCarrySet(db, { perps: snapshots, spots: await readSampleSpotLegs(), at: asOf, sample: true });
  onPublished?.();
  return opportunities.length;
}
