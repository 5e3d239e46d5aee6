import { describe, expect, it } from "vitest";
import { generateSandboxMarket } from "./generate-sandbox-market";
import { levelGapBps, sandboxContractSize, sandboxMarginTable, sandboxOrderBook, sandboxSpotOrderBook } from "./sandbox-depth";
import { sandboxSpotLegs } from "./sandbox-carry";
import { sandboxMarket } from "./sandbox-market";
import { utcMinute } from "./utc-minute";

const AT = new Date("2026-11-24T12:34:56Z");
const market = generateSandboxMarket(AT);
const snapshot = (exchange: string, base: string) => {
  const listed = market.snapshots.filter((s) => s.exchange === exchange && s.base === base);
  const found = listed.find((s) => s.settle === "USDT") ?? listed[0];
  if (!found) throw new Error(`no ${base} on ${exchange}`);
  return found;
};

describe("sandboxOrderBook", () => {
  it("is the same for every request of a minute, and moves with the next", () => {
    const btc = snapshot("binance", "BTC");
    const minute = utcMinute(AT);
    expect(sandboxOrderBook(btc, minute)).toEqual(sandboxOrderBook(btc, minute));
    expect(sandboxOrderBook(btc, minute + 1).bids.map((l) => l[1])).not.toEqual(sandboxOrderBook(btc, minute).bids.map((l) => l[1]));
    expect(sandboxOrderBook(btc, minute).timestamp).toBe(Date.parse("2026-11-24T12:34:00Z"));
  });

  it("lays 50 levels a side around the mark, half a gap to the best price and a gap between levels", () => {
    const eth = snapshot("bybit", "ETH");
    const book = sandboxOrderBook(eth, utcMinute(AT));
    const mark = eth.markPrice!;
    const gap = levelGapBps(eth.volume24hUsd!) / 10_000;
    expect(book.bids).toHaveLength(50);
    expect(book.asks).toHaveLength(50);
    expect(book.bids[0]![0]).toBeCloseTo(mark * (1 - gap / 2), 6);
    expect(book.asks[0]![0]).toBeCloseTo(mark * (1 + gap / 2), 6);
    expect(book.asks[1]![0] - book.asks[0]![0]).toBeCloseTo(mark * gap, 6);
    expect(book.bids.every((level, i) => i === 0 || level[0] < book.bids[i - 1]![0])).toBe(true);
  });

  it("narrows the gap with volume, between 0.05 and 5 bps", () => {
    // 2000 / √(4e8) = 0.1 bps; past 1.6e9 the floor; under 160,000 the ceiling.
    expect(levelGapBps(4e8)).toBeCloseTo(0.1, 12);
    expect(levelGapBps(2e10)).toBe(0.05);
    expect(levelGapBps(1e4)).toBe(5);
  });

  it("counts contracts on OKX and Gate, worth about $1,000 and $10", () => {
    // 1000 / 91,000 → 10^-2; 1000 / 3,600 → 10^-1; 10 / 91,000 → 10^-4.
    expect(sandboxContractSize("okx", 91_000)).toBe(0.01);
    expect(sandboxContractSize("okx", 3_600)).toBe(0.1);
    expect(sandboxContractSize("gate", 91_000)).toBe(0.0001);
    expect(sandboxContractSize("binance", 91_000)).toBe(1);
    const okx = sandboxOrderBook(snapshot("okx", "BTC"), utcMinute(AT));
    expect(okx.contractSize).toBe(0.01);
    expect(okx.bids.every(([, amount]) => Number.isInteger(amount) && amount >= 1)).toBe(true);
  });

  it("is thin on the thinnest markets: a few thousand dollars a side", () => {
    const thin = snapshot("bybit", "SBXNEG");
    const book = sandboxOrderBook(thin, utcMinute(AT));
    const usd = book.asks.reduce((sum, [price, amount]) => sum + price * amount * book.contractSize, 0);
    expect(usd).toBeGreaterThan(500);
    expect(usd).toBeLessThan(50_000);
  });
});

describe("sandboxMarginTable", () => {
  it("gives Hyperliquid one tier at half the initial margin of its maximum leverage", () => {
    expect(sandboxMarginTable(snapshot("hyperliquid", "BTC"))).toEqual({
      available: true,
      source: "market_limits",
      boundsIn: "quote",
      tiers: [{ floor: 0, cap: null, maintenanceMarginRate: 1 / 80, maxLeverage: 40, maintenanceAmount: 0 }],
    });
  });

  it("gives large markets Binance's BTC brackets, with Binance's deductions on binance and none on okx", () => {
    const binance = sandboxMarginTable(snapshot("binance", "BTC"));
    const okx = sandboxMarginTable(snapshot("okx", "BTC"));
    if (!binance.available || !okx.available) throw new Error("expected tiers");
    expect(binance.tiers.slice(0, 3).map((t) => [t.floor, t.cap, t.maintenanceMarginRate, t.maxLeverage, t.maintenanceAmount])).toEqual([
      [0, 50_000, 0.004, 125, 0],
      [50_000, 600_000, 0.005, 100, 50],
      [600_000, 3_000_000, 0.0065, 75, 950],
    ]);
    expect(okx.tiers.every((t) => t.maintenanceAmount === 0)).toBe(true);
    expect(binance.tiers.at(-1)?.cap).toBeNull();
  });

  it("gives small markets the brackets at a tenth of the size and half the leverage", () => {
    const table = sandboxMarginTable(snapshot("bybit", "SBXNEG"));
    if (!table.available) throw new Error("expected tiers");
    expect(table.tiers[0]).toMatchObject({ floor: 0, cap: 5_000, maxLeverage: 62 });
  });
});

describe("sandboxSpotOrderBook", () => {
  const minute = utcMinute(AT);
  const spot = sandboxSpotLegs(market.snapshots, new Date(minute * 60_000)).find((s) => s.exchange === "okx" && s.base === "BTC");

  it("is a book around the spot leg's price, in the coin even on OKX, the same all minute", () => {
    if (!spot) throw new Error("the sandbox has OKX BTC spot");
    const book = sandboxSpotOrderBook(spot, minute);
    expect(book).toEqual(sandboxSpotOrderBook(spot, minute));
    expect(book).toMatchObject({ contractSize: 1, source: "sandbox", timestamp: minute * 60_000 });
    expect(book.bids).toHaveLength(50);
    // Half a gap either side of the spot price: the mid is the price, to rounding.
    expect((book.bids[0]![0] + book.asks[0]![0]) / 2).toBeCloseTo(spot.price, 6);
    // Not the perpetual's book of the venue, whose draws and contract size are its own.
    expect(sandboxOrderBook(snapshot("okx", "BTC"), minute).contractSize).not.toBe(1);
  });

  it("is what a test key's spot book is, and a 503 for a spot market the sandbox does not list", async () => {
    if (!spot) throw new Error("the sandbox has OKX BTC spot");
    const depth = sandboxMarket(() => AT);
    expect(await depth.spotOrderBook({ exchange: "okx", market: spot.market })).toEqual(sandboxSpotOrderBook(spot, minute));
    await expect(depth.spotOrderBook({ exchange: "okx", market: "BTC/EUR" })).rejects.toMatchObject({ code: "VENUE_UNAVAILABLE" });
  });
});
