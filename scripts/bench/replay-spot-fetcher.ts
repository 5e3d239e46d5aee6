// The benchmark's spot venues: each spot venue's recorded answers (tests/fixtures/carry) widened to
// `assets` synthetic assets as the perp replays are (widen-replays.ts), replayed through fetchSpotLegs
// with a read-only key for every signed venue, so a round reads and signs as much as a live one.
import { spotFetcher, type SpotFetcher } from "@/lib/market/ingest/spot-round";
import { createReplayFetch } from "@/lib/market/venues/replay-fetch";
import { allSpotRoutes } from "@/tests/fixtures/carry/spot-replay-table";
import { syntheticBases, widenRoutes } from "./widen-replays";

const BENCH_KEY = { key: "bench-read-only-key", secret: "bench-read-only-secret" };

export function createSpotFetcher({ assets }: { assets: number }): SpotFetcher {
  const replay = createReplayFetch(widenRoutes(allSpotRoutes(), syntheticBases(assets)), { record: false });
  return spotFetcher({ fetchImplementation: replay.fetchImplementation, credentials: { binance: BENCH_KEY, bybit: BENCH_KEY, gate: BENCH_KEY } });
}
