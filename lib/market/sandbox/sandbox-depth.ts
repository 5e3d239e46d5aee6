import type { MarketSnapshot } from "../model/types";
import { singleTierFromMaxLeverage, withLadderDeductions, withoutDeductions, type ListedTier, type MarginTable } from "../books/margin-table";
import { BOOK_LEVELS } from "../books/market-depth";
import type { BookLevel, OrderBook } from "../books/order-book";
import type { SpotLeg } from "../carry/spot-leg";
import { hashText, unitOf } from "./random";
import { MINUTE_MS } from "./utc-minute";

/**
 * The sandbox's order books and margin tiers: pure functions of a snapshot and its minute, so a
 * test key's quote is the same all minute, on any machine, and moves with the market's mark and
 * volume from one minute to the next.
 *
 * Shape, chosen to look like the venues' own (README.md "Order books"): BOOK_LEVELS levels a side
 * around the mark; the gap between levels narrows with the market's 24 h volume, from 5 bps on
 * the thinnest markets to 0.05 bps on BTC; each level holds about 5 millionths of the day's volume
 * (BTC on Binance: ~$100k at the top), growing with distance from the mark, so the thinnest
 * markets have a few thousand dollars on a side and a large quote finds them thin. OKX and Gate
 * count contracts, as the venues do (contractSize about $1,000 and $10 of the asset).
 */

const STREAM_BOOK = 101;
const LEVEL_SHARE_OF_VOLUME = 5e-6;
/** A market whose volume is unknown is treated as a thin one. */
const UNKNOWN_VOLUME_USD = 1e6;

/** Gap between adjacent levels in bps: 2000 / √(24 h volume in USD), between 0.05 and 5. */
export function levelGapBps(volumeUsd: number): number {
  return Math.min(5, Math.max(0.05, 2000 / Math.sqrt(volumeUsd)));
}

/** OKX and Gate count contracts: a power of ten of the asset worth about $1,000 (OKX) or $10 (Gate); 1 elsewhere. */
export function sandboxContractSize(exchange: string, price: number): number {
  const worth = exchange === "okx" ? 1_000 : exchange === "gate" ? 10 : null;
  if (worth === null) return 1;
  const exponent = Math.floor(Math.log10(worth / price));
  // 1 / 10^4 is the double nearest 0.0001; 10^-4 is not.
  return exponent >= 0 ? 10 ** exponent : 1 / 10 ** -exponent;
}

/** The sandbox book of `snapshot`'s market for the minute it was generated for (`minute`, whole UTC minutes). */
export function sandboxOrderBook(snapshot: MarketSnapshot, minute: number): OrderBook {
  const mark = snapshot.markPrice ?? 1;
  return bookAround(`${snapshot.exchange}\u0000${snapshot.market}`, mark, snapshot.volume24hUsd, sandboxContractSize(snapshot.exchange, mark), minute);
}

/**
 * The sandbox book of a spot market (sandbox-carry.ts' legs) for `minute`: shaped as the
 * perpetuals' around the spot price, its own draws (a spot and a perpetual book of one venue
 * differ), in the coin, as spot books count.
 */
export function sandboxSpotOrderBook(spot: Pick<SpotLeg, "exchange" | "market" | "price" | "volume24hUsd">, minute: number): OrderBook {
  return bookAround(`spot\u0000${spot.exchange}\u0000${spot.market}`, spot.price, spot.volume24hUsd, 1, minute);
}

function bookAround(name: string, mark: number, volumeUsd: number | null, contractSize: number, minute: number): OrderBook {
  const volume = volumeUsd ?? UNKNOWN_VOLUME_USD;
  const gap = levelGapBps(volume) / 10_000;
  const key = hashText(name);
  const level = (side: 0 | 1, i: number): BookLevel => {
    const direction = side === 0 ? -1 : 1;
    // Half a gap from the mark to the best price, then one gap per level.
    const price = mark * (1 + direction * gap * (i + 0.5));
    const usd = volume * LEVEL_SHARE_OF_VOLUME * (0.5 + unitOf(key, minute, STREAM_BOOK + side, i)) * (1 + i / 10);
    // At least one contract, as venues have no smaller order.
    return [roundPrice(price), Math.max(1, Math.round(usd / price / contractSize))];
  };
  const side = (s: 0 | 1) => Array.from({ length: BOOK_LEVELS }, (_, i) => level(s, i));
  return { bids: side(0), asks: side(1), contractSize, timestamp: minute * MINUTE_MS, source: "sandbox" };
}

/**
 * The sandbox's margin tiers: Hyperliquid's rule (one tier, maintenance half the initial margin at
 * maximum leverage: 40× for the largest markets, 20× for markets over $1B a day, else 10×);
 * elsewhere Binance's BTCUSDT brackets of 2024 for markets over $1B a day, the same brackets at a
 * tenth of the size and half the leverage for the others, with Binance's and Bybit's ladder
 * deductions and the other venues' whole-position rates.
 */
export function sandboxMarginTable(snapshot: MarketSnapshot): MarginTable {
  const volume = snapshot.volume24hUsd ?? UNKNOWN_VOLUME_USD;
  const large = volume >= 1e9;
  if (snapshot.exchange === "hyperliquid") return singleTierFromMaxLeverage(volume >= 5e9 ? 40 : large ? 20 : 10);
  const scale = large ? { size: 1, leverage: 1 } : { size: 0.1, leverage: 0.5 };
  const listed: ListedTier[] = BRACKETS.map(([floor, cap, rate, leverage]) => ({
    floor: floor * scale.size,
    cap: cap === null ? null : cap * scale.size,
    maintenanceMarginRate: rate,
    maxLeverage: Math.max(1, Math.floor(leverage * scale.leverage)),
  }));
  const ladder = snapshot.exchange === "binance" || snapshot.exchange === "bybit";
  return { available: true, source: "leverage_tiers", boundsIn: "quote", tiers: ladder ? withLadderDeductions(listed) : withoutDeductions(listed) };
}

/** [floor, cap, maintenance rate, max leverage]: Binance's BTCUSDT brackets (lib/market/sample/recordings/binance, 2024-10-24), the last one open-ended. */
const BRACKETS: readonly (readonly [number, number | null, number, number])[] = [
  [0, 50_000, 0.004, 125],
  [50_000, 600_000, 0.005, 100],
  [600_000, 3_000_000, 0.0065, 75],
  [3_000_000, 12_000_000, 0.01, 50],
  [12_000_000, 70_000_000, 0.02, 25],
  [70_000_000, 100_000_000, 0.025, 20],
  [100_000_000, null, 0.05, 10],
];

/** Twelve significant digits: prices like a venue's ticks, without binary noise. */
function roundPrice(price: number): number {
  return Number(price.toPrecision(12));
}
