import { marketKey, type MarketAverage } from "@/lib/market/model/market-average";
import type { MarketSnapshot } from "@/lib/market/model/types";
import { makeSnapshot } from "./make-snapshot";
import { persistenceByMarkets } from "./persistence-lookup";

/** 23 venue names, as many as a live round has. */
export const WIDE_VENUES = Array.from({ length: 23 }, (_, v) => `venue${String.fromCharCode(97 + v)}`);

/**
 * A round's worth of markets (23 venues × `assets` assets, ~152,000 pairs at 600) with figures that
 * vary: unknown depth and prices here and there, a missing rate, a second market of one venue for
 * an asset, and the per-market history a round ranks with. For tests that compare two ways of
 * doing a round's work on a set of real size.
 */
export function wideMarket(assets = 600, observedAt = Date.UTC(2026, 8, 27, 13, 30)) {
  const snapshots: MarketSnapshot[] = [];
  const averages = new Map<string, MarketAverage>();
  const settlements = new Map<string, { rate: number; at: number }>();
  const intervalChanges = new Map<string, number>();
  for (let asset = 0; asset < assets; asset++) {
    WIDE_VENUES.forEach((exchange, v) => {
      const seed = asset * 31 + v * 17;
      const snapshot = makeSnapshot({
        exchange,
        base: `A${asset}`,
        market: `A${asset}/USDT:USDT`,
        fundingRate: seed % 97 === 0 ? null : ((seed % 41) - 20) * 0.00001,
        fundingIntervalHours: [1, 4, 8][(asset + v) % 3] ?? 8,
        markPrice: seed % 13 === 0 ? null : 10 + v * 0.001 + (asset % 7) * 0.01,
        openInterestUsd: seed % 11 === 0 ? null : 1_000 * (seed % 500),
        volume24hUsd: seed % 19 === 0 ? null : 10_000 * (seed % 300),
        observedAt: observedAt - (seed % 5) * 1_000,
      });
      snapshots.push(snapshot);
      if (seed % 29 === 0) snapshots.push({ ...snapshot, market: `A${asset}/USDC:USDC`, settle: "USDC", volume24hUsd: 1 });
      const key = marketKey(exchange, snapshot.market);
      if (seed % 3 !== 0) averages.set(key, { day: (seed % 23) - 11, week: seed % 7 === 0 ? null : (seed % 17) - 8 });
      if (seed % 4 === 0) settlements.set(key, { rate: 0.0001, at: observedAt - 3_600_000 });
      if (seed % 37 === 0) intervalChanges.set(key, observedAt - 7_200_000);
    });
  }
  const persistence = persistenceByMarkets("2026-09-27T13:00:00.000Z", (long, short) =>
    long.base.length % 2 === 0 && long.exchange < short.exchange
      ? { positive_since: null, apr_median_7d: 4.5, apr_median_30d: null, paid_share_7d: 0.75, apr_stddev_7d: 1.25 }
      : undefined,
  );
  return { snapshots, averages, marketHistory: { settlements, intervalChanges }, persistence };
}
