import { readFile } from "node:fs/promises";
import type { Db } from "@/lib/db";
import { computeOpportunities } from "../apr";
import { publishLiveOpportunities } from "../publish-opportunities";
import { createReplayFetch, type ReplayRoute } from "../replay-fetch";
import type { VenueId } from "../types";
import { fetchAllVenues, venueFetcher } from "./fetch-all-venues";

const SAMPLE_FILE = new URL("../sample/venue-responses.json", import.meta.url);

/**
 * Offline first run: when no opportunity set was ever published (no live round completed, no
 * sample loaded), parse the bundled venue responses through the real connectors, by replaying
 * them in place of the network, and publish the result with `sample: true`. The first live round
 * replaces it. Returns how many opportunities it published, or null when a set already existed.
 */
export async function publishSampleIfNeverLive(db: Db, onPublished?: () => void): Promise<number | null> {
  if (await db.opportunitySet.findUnique({ where: { id: "live" }, select: { id: true } })) return null;
  const responses = JSON.parse(await readFile(SAMPLE_FILE, "utf8")) as Record<VenueId, ReplayRoute[]>;
  const replay = createReplayFetch(Object.values(responses).flat());
  const results = await fetchAllVenues(venueFetcher({ fetchImplementation: replay.fetchImplementation, enableRateLimit: false }), {
    timeoutMs: 10_000,
  });
  const replayed = results.flatMap((r) => (r.status === "ok" ? r.snapshots : []));
  // The oldest recording's time, not now: the sample must never pass for fresh data. Venues whose
  // payload carries no time (Gate, Hyperliquid) were stamped with the replay's clock, which would
  // show sample rows as "updated 2 min ago"; every row is dated at the time the sample speaks for.
  const asOf = new Date(Math.min(...replayed.map((s) => s.observedAt)));
  const { opportunities } = computeOpportunities(replayed.map((s) => ({ ...s, observedAt: asOf.getTime() })));
  await publishLiveOpportunities(db, opportunities, { asOf, sample: true });
  onPublished?.();
  return opportunities.length;
}
