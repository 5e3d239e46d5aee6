import { describe, expect, it } from "vitest";
import type { MarketSnapshot, VenueExclusions } from "../../model/types";
import { buildSnapshot, classifyMarket, type FundingObservation, type VenueMarket } from "./build-snapshot";
import { judgeMarkets } from "./judge-markets";
import { linearPerp } from "@/tests/support/market/venue-market";

/** Judging written plainly, a refresh at a time: what the kept per-list work must reproduce. */
function judgedPlainly(markets: readonly VenueMarket[], observations: readonly FundingObservation[], alsoDollars: readonly string[]) {
  const unmatched = new Map(observations.map((observation) => [observation.symbol, observation]));
  const excluded: VenueExclusions = { notLinearPerp: 0, inactive: 0, unlisted: 0, invalid: 0, noFundingRow: 0 };
  const snapshots: MarketSnapshot[] = [];
  for (const market of markets) {
    const observation = unmatched.get(market.symbol);
    unmatched.delete(market.symbol);
    const verdict = classifyMarket(market, alsoDollars);
    if (verdict !== "eligible") {
      excluded[verdict] += 1;
      continue;
    }
    if (!observation) excluded.noFundingRow += 1;
    const snapshot = buildSnapshot("kraken" as never, market, observation, 1_000);
    if (snapshot) snapshots.push(snapshot);
    else excluded.invalid += 1;
  }
  excluded.unlisted = unmatched.size;
  snapshots.sort((a, b) => (a.market < b.market ? -1 : a.market > b.market ? 1 : 0));
  return { snapshots, excluded, unlisted: [...unmatched.keys()] };
}

const row = (symbol: string, fundingRate: number | undefined, markPrice = 10): FundingObservation => ({
  symbol,
  fundingRate,
  markPrice,
  interval: { hours: 8, source: "venue" },
});

// Out of symbol order, with a spot pair, an inverse and a dated contract, an inactive market, a
// Kraken-style USD perpetual (a dollar only where the venue says so), and two markets of one symbol.
const markets: VenueMarket[] = [
  linearPerp("SOL"),
  linearPerp("BTC"),
  linearPerp("ETH", { swap: false, symbol: "ETH/USDT" }),
  linearPerp("XRP", { linear: false, settle: "XRP", quote: "USD", symbol: "XRP/USD:XRP" }),
  linearPerp("ADA", { expiry: 1_750_982_400_000, symbol: "ADA/USDT:USDT-250627" }),
  linearPerp("DOT", { active: false }),
  linearPerp("LTC", { quote: "USD", settle: "USD", symbol: "LTC/USD:USD" }),
  linearPerp("AVAX"),
  linearPerp("AVAX", { id: "AVAXUSDT-2" }),
  linearPerp("ARB"),
];

describe("judgeMarkets", () => {
  const rounds: FundingObservation[][] = [
    // Rows for most markets, one for a market not listed (twice), two for SOL (the last counts),
    // one for the spot pair (left out with it, not unlisted), a garbled rate (ARB: invalid).
    [
      row("SOL/USDT:USDT", 0.0001),
      row("BTC/USDT:USDT", 0.0002),
      row("NEW/USDT:USDT", 0.0003),
      row("ETH/USDT", 0.0004),
      row("SOL/USDT:USDT", 0.0005, 11),
      row("AVAX/USDT:USDT", -0.0001),
      row("NEW/USDT:USDT", 0.0006),
      row("ARB/USDT:USDT", Number.NaN),
      row("LTC/USD:USD", 0.0007),
    ],
    // The same list object on the next refresh: other rows, none for BTC, another unlisted market.
    [row("BTC/USDT:USDT", undefined), row("ARB/USDT:USDT", 0.0008), row("OLD/USDT:USDT", 0.0001), row("SOL/USDT:USDT", -0.0002)],
    [],
  ];

  for (const alsoDollars of [[], ["USD"]]) {
    it(`gives, refresh after refresh of one kept list, what judging each plainly gives (dollars also: ${alsoDollars.join() || "none"})`, () => {
      for (const observations of rounds) {
        expect(judgeMarkets("kraken" as never, markets, observations, 1_000, alsoDollars)).toEqual(judgedPlainly(markets, observations, alsoDollars));
      }
    });
  }

  it("gives the snapshots in symbol order, each market of a shared symbol once, the row to the first", () => {
    const { snapshots, excluded, unlisted } = judgeMarkets("kraken" as never, markets, rounds[0]!, 1_000, []);
    expect(snapshots.map((s) => [s.market, s.venueMarketId, s.fundingRate])).toEqual([
      ["AVAX/USDT:USDT", "AVAXUSDT", -0.0001],
      ["AVAX/USDT:USDT", "AVAXUSDT-2", null],
      ["BTC/USDT:USDT", "BTCUSDT", 0.0002],
      ["SOL/USDT:USDT", "SOLUSDT", 0.0005],
    ]);
    expect(excluded).toEqual({ notLinearPerp: 4, inactive: 1, unlisted: 1, invalid: 1, noFundingRow: 1 });
    expect(unlisted).toEqual(["NEW/USDT:USDT"]);
  });

  it("judges a reloaded list afresh", () => {
    const reloaded = [...markets.filter((m) => m.base !== "BTC"), linearPerp("NEW")];
    const { snapshots, unlisted } = judgeMarkets("kraken" as never, reloaded, rounds[0]!, 1_000, []);
    expect(snapshots.map((s) => s.market)).toContain("NEW/USDT:USDT");
    expect(snapshots.map((s) => s.market)).not.toContain("BTC/USDT:USDT");
    expect(unlisted).toEqual(["BTC/USDT:USDT"]);
  });
});
