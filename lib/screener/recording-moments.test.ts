import { describe, expect, it } from "vitest";
import { computeOpportunities } from "@/lib/market/opportunities/rank-opportunities";
import { replaySampleMarket } from "@/lib/market/sample/replay-sample-market";
import { makeSnapshot } from "@/tests/support/market/make-snapshot";
import { describeRecordingMoments, recordingMoments } from "./recording-moments";

describe("recordingMoments", () => {
  it("says which venues' prices in the shipped sample are from which date, oldest first", async () => {
    const { opportunities } = computeOpportunities((await replaySampleMarket()).snapshots);
    const moments = recordingMoments(opportunities);
    expect(moments).toEqual([
      { when: "2023-10-31 12:55 UTC", venues: ["KuCoin"] },
      { when: "2025-01-06 09:31 UTC", venues: ["Derive"] },
      { when: "2025-06-17 08:38 UTC", venues: ["Binance"] },
      { when: "2025-07-04 10:13 UTC", venues: ["WOO X"] },
      { when: "2025-09-25 01:38 UTC", venues: ["Aster"] },
      { when: "2025-10-03 10:30 UTC", venues: ["Backpack"] },
      { when: "2025-11-13 03:46 UTC", venues: ["Lighter"] },
      { when: "2025-12-08 16:12 UTC", venues: ["dYdX"] },
      { when: "2026-02-10 13:30 UTC", venues: ["Drift"] },
      { when: "2026-04-29 06:30 UTC", venues: ["Extended"] },
      { when: "2026-05-29 12:20 UTC", venues: ["Hyperliquid HyENA"] },
      { when: "2026-08-01 07:40 UTC", venues: ["Bitget"] },
      { when: "2026-09-13 22:03 UTC", venues: ["Variational"] },
      { when: "2026-09-13 22:37 UTC", venues: ["edgeX"] },
      { when: "2026-09-13 22:40 UTC", venues: ["Hibachi"] },
      { when: "2026-09-27 13:50 UTC", venues: ["Bybit", "Gate", "Hyperliquid", "OKX"] },
    ]);
    expect(describeRecordingMoments(moments)).toBe(
      "KuCoin 2023-10-31 12:55 UTC; Derive 2025-01-06 09:31 UTC; " +
        "Binance 2025-06-17 08:38 UTC; WOO X 2025-07-04 10:13 UTC; Aster 2025-09-25 01:38 UTC; Backpack 2025-10-03 10:30 UTC; " +
        "Lighter 2025-11-13 03:46 UTC; dYdX 2025-12-08 16:12 UTC; Drift 2026-02-10 13:30 UTC; Extended 2026-04-29 06:30 UTC; " +
        "Hyperliquid HyENA 2026-05-29 12:20 UTC; Bitget 2026-08-01 07:40 UTC; Variational 2026-09-13 22:03 UTC; " +
        "edgeX 2026-09-13 22:37 UTC; Hibachi 2026-09-13 22:40 UTC; Bybit, Gate, Hyperliquid and OKX 2026-09-27 13:50 UTC",
    );
  });

  it("gives a range for a venue seen at several times and leaves out legs of unknown time", () => {
    const at = Date.UTC(2026, 10, 24, 12);
    const { opportunities } = computeOpportunities([
      makeSnapshot({ exchange: "okx", observedAt: at }),
      makeSnapshot({ exchange: "okx", base: "ETH", observedAt: at + 3 * 60_000 }),
      makeSnapshot({ exchange: "bybit", fundingRate: 0.0002, observedAt: at }),
      makeSnapshot({ exchange: "bybit", base: "ETH", fundingRate: 0.0002, observedAt: at + 3 * 60_000 }),
      makeSnapshot({ exchange: "gate", base: "SOL", observedAt: at }),
      makeSnapshot({ exchange: "binance", base: "SOL", observedAt: at }),
    ]);
    const [first] = opportunities;
    if (!first) throw new Error("no opportunity");
    const unknown = { ...first, long: { ...first.long, exchange: "hyperliquid", observed_at: null } };
    expect(recordingMoments([...opportunities, unknown])).toEqual([
      { when: "2026-11-24 12:00 UTC", venues: ["Binance", "Gate"] },
      { when: "2026-11-24 12:00 UTC – 2026-11-24 12:03 UTC", venues: ["Bybit", "OKX"] },
    ]);
    expect(describeRecordingMoments([])).toBeNull();
  });
});
