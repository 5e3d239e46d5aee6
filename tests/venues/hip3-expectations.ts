import type { Hip3VenueId } from "@/lib/market/model/hip3-venues";
import { fixtureJson } from "@/tests/fixtures/venues/read-fixture";
import { HIP3_REPLAY_TIME, hip3MetaAndAssetCtxs, hip3PerpDexs, hip3Routes, recordedContexts } from "@/tests/fixtures/venues/replays/hyperliquid-hip3";
import type { VenueRow } from "./venue-row";

/*
 * The HIP-3 dexes' rows of the venue table (venue-expectations.ts spreads them in): one adapter,
 * one venue a dex. tests/fixtures/venues/replays/hyperliquid-hip3.ts says which payload is REAL, DOC
 * or SYNTHETIC.
 */

type Row = Record<string, unknown>;

const NEXT_HOUR = Date.UTC(2026, 4, 29, 13);

function requests(dex: string): string[] {
  return ['POST /info {"type":"perpDexs"}', `POST /info {"type":"metaAndAssetCtxs","dex":"${dex}"}`];
}

/** The REAL contexts of `dex` under the universe of its replayed answer, with `edit` applied to a copy. */
function editedMeta(dex: "xyz", edit: (meta: Row, contexts: Row[]) => void): unknown {
  const [meta, contexts] = structuredClone(hip3MetaAndAssetCtxs(dex)) as [Row, Row[]];
  edit(meta, contexts);
  return [meta, contexts];
}

/** Fields every HIP-3 snapshot shares: hourly by protocol rule, no bound, the HIP-3 base-tier taker fee. */
const HOURLY = { fundingIntervalHours: 1, fundingIntervalSource: "protocol", nextFundingAt: NEXT_HOUR, rateCap: null, rateFloor: null, takerFee: 0.0009 } as const;

/**
 * A dex whose contexts are REAL and coin names SYNTHETIC (`<dex>:CTX<i>`): its first market's
 * figures, how many trade, and how many the recording shows dead (no interest, volume or book).
 */
function recordedDex(venue: Hip3VenueId, settle: string, first: { funding: number; mark: number; oracle: number; openInterest: number; volume: number }, counts: { markets: number; dead: number }): VenueRow {
  const dex = venue.slice("hyperliquid:".length);
  return {
    venue,
    fixture: `REAL: ${dex}'s contexts (nautilus allDexsAssetCtxs, late May 2026). SYNTHETIC: their coin names, perpDexs (the DOC fields), the clock.`,
    routes: () => hip3Routes(venue),
    now: HIP3_REPLAY_TIME,
    markets: {
      [`${dex.toUpperCase()}-CTX0/${settle}:${settle}`]: {
        venueMarketId: `${dex}:CTX0`,
        base: "CTX0",
        quote: settle,
        settle,
        fundingRate: first.funding,
        predictedFundingRate: first.funding,
        ...HOURLY,
        markPrice: first.mark,
        indexPrice: first.oracle,
        openInterestUsd: first.openInterest * first.mark,
        volume24hUsd: first.volume,
        // A ticker the class table does not know, on a dex of stocks and commodities: never paired with crypto.
        underlyingClass: "other",
        tradingHours: "always-off-hours-oracle",
      },
    },
    marketCount: counts.markets - counts.dead,
    excluded: { notLinearPerp: 0, inactive: counts.dead, unlisted: 0, invalid: 0, noFundingRow: 0 },
    requests: requests(dex),
    warnings: [],
  };
}

export const HIP3_EXPECTATIONS: readonly VenueRow[] = [
  {
    venue: "hyperliquid:xyz",
    fixture: "DOC: metaAndAssetCtxs of xyz (Hyperliquid's docs: XYZ100, TSLA, NVDA). SYNTHETIC: perpDexs naming the recording's dexes (DOC fields); the clock.",
    routes: () => hip3Routes("hyperliquid:xyz"),
    now: HIP3_REPLAY_TIME,
    reference: {
      market: "XYZ-XYZ100/USDC:USDC",
      venueMarketId: "xyz:XYZ100",
      base: "XYZ100",
      venueBase: "XYZ100",
      contractMultiplier: 1,
      quote: "USDC",
      settle: "USDC",
      // The context's `funding`: the running hourly rate, which settles next.
      fundingRate: 0.0002110251,
      predictedFundingRate: 0.0002110251,
      ...HOURLY,
      markPrice: 25451,
      indexPrice: 25372,
      openInterestUsd: 0.0854 * 25451,
      volume24hUsd: 462.9758,
      observedAt: HIP3_REPLAY_TIME,
      // XYZ100 is trade.xyz's US-100 index: it trades 24/7, priced off hours from the dex's book.
      underlyingClass: "index",
      tradingHours: "always-off-hours-oracle",
    },
    markets: {
      // No book (premium and impact prices null), yet open interest: listed and trading, funding 0.
      "XYZ-TSLA/USDC:USDC": { fundingRate: 0, underlyingClass: "equity", tradingHours: "always-off-hours-oracle", openInterestUsd: 12.208 * 465.13, volume24hUsd: 0 },
      "XYZ-NVDA/USDC:USDC": { underlyingClass: "equity", markPrice: 177.06, indexPrice: 188.15 },
    },
    listed: ["XYZ-NVDA/USDC:USDC", "XYZ-TSLA/USDC:USDC", "XYZ-XYZ100/USDC:USDC"],
    excluded: { notLinearPerp: 0, inactive: 0, unlisted: 0, invalid: 0, noFundingRow: 0 },
    requests: requests("xyz"),
    // abcd, the recording's test dex, is left out on purpose and named in no warning.
    warnings: [],
    variants: [
      {
        name: "goes stale when perpDexs no longer lists the dex (the DOC answer: only `test`)",
        routes: () => hip3Routes("hyperliquid:xyz", { perpDexs: fixtureJson("hyperliquid-hip3/perpDexs_DOC.json") }),
        requests: ['POST /info {"type":"perpDexs"}'],
        stale: /perpDexs no longer lists dex xyz/,
      },
      {
        name: "names a dex perpDexs lists that is not a venue, and serves the rest",
        routes: () => hip3Routes("hyperliquid:xyz", { perpDexs: hip3PerpDexs(["xyz", "abcd", "newdex"]) }),
        marketCount: 3,
        warnings: [/^perpDexs: dexes not served as venues: newdex$/],
      },
      {
        name: "goes stale on a dex with no live market (the REAL abcd context under xyz's coin)",
        routes: () =>
          hip3Routes("hyperliquid:xyz", {
            meta: editedMeta("xyz", (meta, contexts) => {
              meta.universe = [(meta.universe as Row[])[0]];
              contexts.splice(0, contexts.length, recordedContexts().get("abcd")![0]!);
            }),
          }),
        stale: /dex xyz has no live market/,
      },
      {
        name: "counts a delisted coin, or one without interest, volume or book (the REAL dead contexts' shape), as inactive",
        routes: () =>
          hip3Routes("hyperliquid:xyz", {
            meta: editedMeta("xyz", (meta, contexts) => {
              (meta.universe as Row[])[1]!.isDelisted = true;
              contexts[2] = recordedContexts().get("xyz")![32]!;
            }),
          }),
        listed: ["XYZ-XYZ100/USDC:USDC"],
        excluded: { inactive: 2 },
      },
      {
        name: "never adopts a coin without the dex's prefix (a main-dex SPX in xyz's answer)",
        routes: () =>
          hip3Routes("hyperliquid:xyz", {
            meta: editedMeta("xyz", (meta) => {
              (meta.universe as Row[])[1]!.name = "SPX";
            }),
          }),
        listed: ["XYZ-NVDA/USDC:USDC", "XYZ-XYZ100/USDC:USDC"],
      },
      {
        name: "refuses a collateral token it cannot name",
        routes: () =>
          hip3Routes("hyperliquid:xyz", {
            meta: editedMeta("xyz", (meta) => {
              meta.collateralToken = 268;
            }),
          }),
        stale: /margined in spot token 268/,
      },
    ],
  },
  {
    venue: "hyperliquid:hyna",
    fixture:
      "REAL: the hyna:BTC universe row and collateral token 235 (nautilus allPerpMetas, ~June 2026) beside hyna's first context (allDexsAssetCtxs, late May 2026; oracle 77608, BTC's in the same message). SYNTHETIC: perpDexs (DOC fields), the clock.",
    routes: () => hip3Routes("hyperliquid:hyna"),
    now: HIP3_REPLAY_TIME,
    reference: {
      market: "HYNA-BTC/USDE:USDE",
      venueMarketId: "hyna:BTC",
      base: "BTC",
      venueBase: "BTC",
      contractMultiplier: 1,
      // Margined in USDe (spot token 235).
      quote: "USDE",
      settle: "USDE",
      fundingRate: 0.0000125,
      predictedFundingRate: 0.0000125,
      ...HOURLY,
      markPrice: 77595,
      indexPrice: 77608,
      openInterestUsd: 311.74306 * 77595,
      volume24hUsd: 3890769.1005700012,
      observedAt: HIP3_REPLAY_TIME,
      // Crypto: pairs with every venue's BTC; trades around the clock (no tradingHours).
      underlyingClass: "crypto",
    },
    marketCount: 1,
    requests: requests("hyna"),
    warnings: [],
  },
  recordedDex("hyperliquid:flx", "USDH", { funding: 0.0000485044, mark: 433.77, oracle: 433.77, openInterest: 741.26, volume: 9900.881 }, { markets: 16, dead: 1 }),
  recordedDex("hyperliquid:vntl", "USDH", { funding: 0.0000533786, mark: 2311.3, oracle: 2025.3, openInterest: 1967.552, volume: 59765.955 }, { markets: 15, dead: 2 }),
  recordedDex("hyperliquid:km", "USDH", { funding: 0.0000057078, mark: 752.44, oracle: 752.51, openInterest: 3007.456, volume: 3386355.5867900001 }, { markets: 23, dead: 1 }),
  recordedDex("hyperliquid:cash", "USDC", { funding: -0.0000003455, mark: 7551.127, oracle: 7552.973, openInterest: 2621.526, volume: 3136243.5419000005 }, { markets: 17, dead: 2 }),
  recordedDex("hyperliquid:para", "USDC", { funding: 0.0000195449, mark: 1008.636, oracle: 1008.293, openInterest: 323.8, volume: 10781.22172 }, { markets: 5, dead: 1 }),
];
