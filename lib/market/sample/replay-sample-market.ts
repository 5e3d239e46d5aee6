import { readFile } from "node:fs/promises";
import { fetchVenueSnapshot } from "../connectors/fetch-venue-snapshot";
import { fetchAllVenues } from "../venues/fetch-all-venues";
import { createReplayFetch } from "../replay-fetch";
import { VENUE_IDS, type MarketSnapshot, type VenueId } from "../types";
import type { SampleMarketFile } from "./sample-venue-responses";

const SAMPLE_FILE = new URL("./venue-responses.json", import.meta.url);

export interface ReplayedSample {
  /** Every venue's snapshots, each observed at its venue's recorded moment. */
  snapshots: MarketSnapshot[];
  /** Epoch ms of each venue's recording, as the file states it. */
  recordedAt: Partial<Record<VenueId, number>>;
}

/**
 * The bundled sample parsed through the real connectors, by replaying its responses in place of
 * the network. Each venue is replayed with its clock at its recording's moment, so a venue whose
 * payload carries no time (Gate, Hyperliquid) is dated then too, never "now": every snapshot is
 * observed when its recording was, and legs recorded on different days get no price spread.
 */
export async function replaySampleMarket(file: URL = SAMPLE_FILE): Promise<ReplayedSample> {
  const sample = JSON.parse(await readFile(file, "utf8")) as SampleMarketFile;
  const venues = VENUE_IDS.filter((venue) => sample.responses?.[venue] !== undefined);
  const recordedAt: Partial<Record<VenueId, number>> = {};
  for (const venue of venues) {
    const at = Date.parse(sample.recordedAt?.[venue] ?? "");
    // Replaying a venue at "now" would date a recording as fresh data: refuse the file instead.
    if (!Number.isFinite(at)) throw new Error(`the offline sample states no recording time for ${venue}`);
    recordedAt[venue] = at;
  }
  // One replay per venue: venues share paths (Aster serves Binance's /fapi/v1 API), not hosts.
  const results = await fetchAllVenues(
    (venue, { timeoutMs }) =>
      fetchVenueSnapshot(venue, {
        fetchImplementation: createReplayFetch(sample.responses[venue] ?? []).fetchImplementation,
        enableRateLimit: false,
        timeoutMs,
        now: () => recordedAt[venue] ?? Number.NaN,
      }),
    { timeoutMs: 10_000, venues },
  );
  return { snapshots: results.flatMap((r) => (r.status === "ok" ? r.snapshots : [])), recordedAt };
}
