/*
 * The offline sample's order books and margin tiers: real recordings (lib/market/sample/recordings, sources
 * in tests/fixtures/venues/SOURCES.md), served to live keys while the service still serves the sample instead
 * of a live round. Recordings exist for BTC on each of the sample's venues, each of its own day;
 * the books are excerpts of 3 to 5 levels, so a quote of any size finds them thin, and the
 * depth timestamp says which day they are of.
 *
 * Each venue's book is read here in its own format rather than replayed through ccxt, because
 * Bitget's recording is of its retired v1 endpoint, which ccxt no longer requests: the shape is
 * the same for all of them (a price and an amount per level), and the amount's unit is the one
 * ccxt's `contractSize` would give (OKX's `ctVal`, Gate's `quanto_multiplier`), read from the
 * venues' own recorded instrument lists.
 *
 * The recordings are imported as JSON modules rather than read from disk: this module is part of
 * every server's request path (the Market port), Next's mount of /v1 included, whose bundler
 * inlines an import but rewrites a file path computed from `import.meta.url` into its own assets.
 */
import { AppError } from "@/lib/errors";
import type { MarketRef } from "../model/market-ref";
import {
  marginUnavailable,
  withLadderDeductions,
  withoutDeductions,
  type ListedTier,
  type MarginTable,
} from "../books/margin-table";
import type { MarketDepth } from "../books/market-depth";
import { tradableLevels, type OrderBook } from "../books/order-book";
import binanceBrackets2024 from "./recordings/binance/leverageBracket_via-ccxt-fetchLeverageTiers_2024-10-24_BTC-ETH-SOL-DOGE.json" with { type: "json" };
import binanceDepth from "./recordings/binance/depth_BTCUSDT_2022-06-03_excerpt3.json" with { type: "json" };
import bitgetDepth from "./recordings/bitget/mix_v1_depth_BTCUSDT_UMCBL_2023-02-28_excerpt3.json" with { type: "json" };
import bybitDepth from "./recordings/bybit/orderbook_linear_BTCUSDT_2024-04-01_limit5.json" with { type: "json" };
import bybitSpotDepth from "./recordings/bybit/orderbook_spot_BTCUSDT_nautilus-test-data.json" with { type: "json" };
import gateContracts2023 from "./recordings/gate/futures_usdt_contracts_2023-05-24_BTC-ETH-RDNT-QUICK.json" with { type: "json" };
import gateDepth from "./recordings/gate/futures_usdt_order_book_BTC_USDT_2022-06-03_excerpt5.json" with { type: "json" };
import hyperliquidDepth from "./recordings/hyperliquid/l2Book_BTC_2025-10-30_top5_no-n.json" with { type: "json" };
import hyperliquidMeta from "./recordings/hyperliquid/metaAndAssetCtxs_2026-09_BTC-ETH-SOL-HYPE.json" with { type: "json" };
import okxDepth from "./recordings/okx/books_SWAP_BTC-USDT-SWAP_2022-06-04_excerpt3.json" with { type: "json" };
import okxInstruments from "./recordings/okx/instruments_SWAP_sample.json" with { type: "json" };

type Row = Record<string, unknown>;
type Pair = [unknown, unknown];

interface Recording {
  exchange: string;
  /** The sample's market for it (its ccxt symbol). */
  market: string;
  book: () => OrderBook;
  margin: () => MarginTable;
}

const recorded = (bids: Pair[], asks: Pair[], contractSize: number, timestamp: number): OrderBook => ({
  bids: tradableLevels(bids, "bids"),
  asks: tradableLevels(asks, "asks"),
  contractSize,
  timestamp,
  source: "recording",
});

const notRecorded = (exchange: string) => () =>
  marginUnavailable("not_recorded", `The offline sample has no recording of ${exchange}'s margin tiers`);

/** OKX's `ctVal` (base coin per contract) of an instrument, from the recorded SWAP instrument list. */
function okxContractValue(instId: string): number {
  const row = (okxInstruments as { data: Row[] }).data.find((r) => r.instId === instId);
  const value = Number(row?.ctVal);
  if (!(value > 0)) throw new Error(`no ctVal for ${instId} in the recorded OKX instruments`);
  return value;
}

/** A Gate contract as the recorded contract list (2023-05-24) has it. */
function gateContract(name: string): Row {
  const row = (gateContracts2023 as Row[]).find((r) => r.name === name);
  if (!row) throw new Error(`no ${name} in the recorded Gate contracts`);
  return row;
}

/**
 * Gate's risk-limit ladder from a contract's fields, as ccxt reads it (gate.parseEmulatedLeverageTiers):
 * tiers of `risk_limit_step` USDT up to `risk_limit_max`, the k-th with k × `maintenance_rate` and
 * a maximum leverage of `leverage_max` / k. Gate applies a tier's rate to the whole position.
 */
export function gateRiskLimitTiers(contract: Row): ListedTier[] {
  const unit = Number(contract.maintenance_rate);
  const step = Number(contract.risk_limit_step);
  const max = Number(contract.risk_limit_max);
  const leverageMax = Number(contract.leverage_max);
  if (!(unit > 0 && step > 0 && max > 0 && leverageMax > 0)) throw new Error(`unusable risk-limit fields on ${String(contract.name)}`);
  const tiers: ListedTier[] = [];
  for (let k = 1; (k - 1) * step < max; k++) {
    tiers.push({ floor: (k - 1) * step, cap: k * step, maintenanceMarginRate: k * unit, maxLeverage: leverageMax / k });
  }
  return tiers;
}

/**
 * Hyperliquid's margin table of an asset (from the recorded metaAndAssetCtxs): each tier from its
 * `lowerBound` to the next, keeping half the initial margin at its maximum leverage as maintenance,
 * with the deductions that keep the margin continuous (Hyperliquid's documented rule).
 */
export function hyperliquidMarginTiers(coin: string): ListedTier[] {
  const [meta] = hyperliquidMeta as unknown as [{ universe: Row[]; marginTables: [number, { marginTiers: Row[] }][] }];
  const asset = meta.universe.find((a) => a.name === coin);
  const table = meta.marginTables.find(([id]) => id === asset?.marginTableId)?.[1];
  if (!table) throw new Error(`no margin table for ${coin} in the recorded metaAndAssetCtxs`);
  return table.marginTiers.map((tier, i, all) => {
    const maxLeverage = Number(tier.maxLeverage);
    const next = all[i + 1];
    return { floor: Number(tier.lowerBound), cap: next ? Number(next.lowerBound) : null, maintenanceMarginRate: 1 / (2 * maxLeverage), maxLeverage };
  });
}

/** Binance's brackets of a market as ccxt's fetchLeverageTiers returned them (the 2024-10-24 export). */
function binanceBrackets(symbol: string): ListedTier[] {
  const tiers = (binanceBrackets2024 as unknown as Record<string, Row[] | undefined>)[symbol];
  if (!tiers) throw new Error(`no recorded Binance brackets for ${symbol}`);
  return tiers.map((t) => ({
    floor: Number(t.minNotional),
    cap: Number(t.maxNotional),
    maintenanceMarginRate: Number(t.maintenanceMarginRate),
    maxLeverage: Number(t.maxLeverage),
  }));
}

const tiers = (listed: ListedTier[], ladder: boolean): MarginTable => ({
  available: true,
  source: "leverage_tiers",
  boundsIn: "quote",
  tiers: ladder ? withLadderDeductions(listed) : withoutDeductions(listed),
});

const RECORDINGS: readonly Recording[] = [
  {
    exchange: "binance",
    market: "BTC/USDT:USDT",
    book: () => {
      const body = binanceDepth as unknown as { T: number; bids: Pair[]; asks: Pair[] };
      return recorded(body.bids, body.asks, 1, body.T);
    },
    margin: () => tiers(binanceBrackets("BTC/USDT:USDT"), true),
  },
  {
    exchange: "bybit",
    market: "BTC/USDT:USDT",
    book: () => {
      const { result } = bybitDepth as unknown as { result: { b: Pair[]; a: Pair[]; ts: number } };
      return recorded(result.b, result.a, 1, result.ts);
    },
    margin: notRecorded("bybit"),
  },
  {
    exchange: "okx",
    market: "BTC/USDT:USDT",
    book: () => {
      const [book] = (okxDepth as unknown as { data: { bids: Pair[]; asks: Pair[]; ts: string }[] }).data;
      if (!book) throw new Error("the recorded OKX book is empty");
      return recorded(book.bids, book.asks, okxContractValue("BTC-USDT-SWAP"), Number(book.ts));
    },
    margin: notRecorded("okx"),
  },
  {
    exchange: "bitget",
    market: "BTC/USDT:USDT",
    book: () => {
      const { data } = bitgetDepth as unknown as { data: { bids: Pair[]; asks: Pair[]; timestamp: string } };
      return recorded(data.bids, data.asks, 1, Number(data.timestamp));
    },
    margin: notRecorded("bitget"),
  },
  {
    exchange: "gate",
    market: "BTC/USDT:USDT",
    book: () => {
      const body = gateDepth as { current: number; bids: { p: string; s: number }[]; asks: { p: string; s: number }[] };
      const levels = (side: { p: string; s: number }[]): Pair[] => side.map((level) => [level.p, level.s]);
      const contractSize = Number(gateContract("BTC_USDT").quanto_multiplier);
      return recorded(levels(body.bids), levels(body.asks), contractSize, Math.round(body.current * 1000));
    },
    margin: () => tiers(gateRiskLimitTiers(gateContract("BTC_USDT")), false),
  },
  {
    exchange: "hyperliquid",
    market: "BTC/USDC:USDC",
    book: () => {
      const body = hyperliquidDepth as unknown as { levels: [{ px: string; sz: string }[], { px: string; sz: string }[]]; time: number };
      const levels = (side: { px: string; sz: string }[]): Pair[] => side.map((level) => [level.px, level.sz]);
      return recorded(levels(body.levels[0]), levels(body.levels[1]), 1, body.time);
    },
    margin: () => tiers(hyperliquidMarginTiers("BTC"), true),
  },
];

/**
 * The sample's recorded spot books, by venue and spot symbol. Only Bybit's BTC/USDT has one: a
 * book of Bybit v5's spot shape from another project's test data (tests/fixtures/carry/SOURCES.md),
 * dated by its own `ts` (2024-03-08); the sample's other spot legs are quoted once a live round runs.
 */
const SPOT_RECORDINGS: readonly { exchange: string; market: string; book: () => OrderBook }[] = [
  {
    exchange: "bybit",
    market: "BTC/USDT",
    book: () => {
      const { result } = bybitSpotDepth as unknown as { result: { b: Pair[]; a: Pair[]; ts: number } };
      return recorded(result.b, result.a, 1, result.ts);
    },
  },
];

const keyOf = (leg: MarketRef) => `${leg.exchange}\u0000${leg.market}`;
let spotParsed: Map<string, OrderBook> | undefined;
let parsed: Map<string, { book: OrderBook; margin: MarginTable }> | undefined;

/** Every recording, parsed once. */
function recordings(): Map<string, { book: OrderBook; margin: MarginTable }> {
  parsed ??= new Map(RECORDINGS.map((r) => [keyOf(r), { book: r.book(), margin: r.margin() }]));
  return parsed;
}

/** The markets the offline sample has a recorded book of. */
export function recordedMarkets(): MarketRef[] {
  return RECORDINGS.map(({ exchange, market }) => ({ exchange, market }));
}

/**
 * The depth live keys are quoted from while the service serves the offline sample: the recorded
 * books above, and for a market without one a 503 saying so (it is quoted from the venue once a
 * live round has replaced the sample).
 */
export function recordedMarketDepth(): MarketDepth {
  return {
    async orderBook(leg) {
      const found = recordings().get(keyOf(leg));
      if (!found) {
        throw new AppError(
          "VENUE_UNAVAILABLE",
          `The offline sample has no recorded order book of ${leg.market} on ${leg.exchange}; it is quoted from the venue once a live ingestion round has run`,
        );
      }
      return found.book;
    },
    async spotOrderBook(leg) {
      spotParsed ??= new Map(SPOT_RECORDINGS.map((r) => [keyOf(r), r.book()]));
      const found = spotParsed.get(keyOf(leg));
      if (!found) {
        throw new AppError(
          "VENUE_UNAVAILABLE",
          `The offline sample has no recorded spot order book of ${leg.market} on ${leg.exchange}; it is quoted from the venue once a live ingestion round has run`,
        );
      }
      return found;
    },
    async marginTable(leg) {
      return recordings().get(keyOf(leg))?.margin ?? notRecorded(leg.exchange)();
    },
    quoteTime: (now) => now,
  };
}
