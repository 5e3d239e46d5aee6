import { readFile } from "node:fs/promises";
import { fetchVenueSnapshot } from "../venues/connectors/fetch-venue-snapshot";
import { createReplayFetch, type ReplayRoute } from "../venues/replay-fetch";
import { answeredSnapshots } from "../venues/fetch-all-venues";
import { VENUE_IDS, type MarketSnapshot, type VenueId } from "../model/types";

const SAMPLE_FILE = new URL("./venue-responses.json", import.meta.url);

/**
 * What venue-responses.json holds: each venue's moment (ISO 8601 UTC) and responses. Built by
 * `npm run sample:build` from the venue recordings (tests/fixtures/venues/sample-venue-responses.ts).
 */
export interface SampleMarketFile {
  recordedAt: Partial<Record<VenueId, string>>;
  responses: Partial<Record<VenueId, ReplayRoute[]>>;
}

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
  // fetchVenueSnapshot never throws: a venue whose replay fails comes back stale.
  const results = await Promise.all(
    venues.map((venue) =>
      fetchVenueSnapshot(venue, {
        fetchImplementation: createReplayFetch(sample.responses[venue] ?? []).fetchImplementation,
        enableRateLimit: false,
        timeoutMs: 10_000,
        now: () => recordedAt[venue] ?? Number.NaN,
      }),
    ),
  );
  return { snapshots: answeredSnapshots(results), recordedAt };
}
