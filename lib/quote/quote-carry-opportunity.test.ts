import { describe, expect, it } from "vitest";
import { AppError } from "@/lib/errors";
import { liveMarketDepth } from "@/lib/market/books/live-market-depth";
import { ccxtDepthSource } from "@/lib/market/books/ccxt-depth-source";
import { ccxtSpotBookSource } from "@/lib/market/books/ccxt-spot-book-source";
import { rankCarryOpportunities } from "@/lib/market/carry/carry-pairs";
import { createReplayFetch, type ReplayReply, type ReplayRoute } from "@/lib/market/venues/replay-fetch";
import type { VenueDepthSource } from "@/lib/market/books/market-depth";
import type { CcxtVenueId } from "@/lib/market/venues/connectors/venue-adapter";
import { recordedMarketDepth } from "@/lib/market/sample/recorded-depth";
import { sandboxMarket } from "@/lib/market/sandbox/sandbox-market";
import { sandboxCarrySnapshot } from "@/lib/market/sandbox/sandbox-carry";
import { bitgetSpotBookRoutes, bybitSpotBookRoutes, kucoinSpotBookRoutes, venueBookRoutes } from "@/tests/support/market/book-replays";
import { makeSnapshot } from "@/tests/support/market/make-snapshot";
import { makeSpot } from "@/tests/support/market/make-spot";
import { carryQuoteFiguresSchema } from "./carry-quote-schema";
import { quoteCarryOpportunity, type CarryQuoteMarket } from "./quote-carry-opportunity";

const H = 3_600_000;
const NOW = new Date("2026-11-24T07:00:00Z");

/**
 * Bybit's recorded linear BTC/USDT:USDT book through ccxt (best bid 69,445.9 × 49.567, best ask
 * 69,448.3 × 106.435: mid 69,447.1) and a spot venue's recorded spot books (`spotRoutes`), each
 * venue through its own replay. The perpetual's stated taker fee is Bybit's 0.055 %.
 */
function replayedMarket(spotVenue: CcxtVenueId, spotRoutes: ReplayRoute[], deadlineMs = 3_000): CarryQuoteMarket {
  const replayed = { enableRateLimit: false } as const;
  const perp = { ...replayed, fetchImplementation: createReplayFetch(venueBookRoutes("bybit")).fetchImplementation };
  const spot = { ...replayed, fetchImplementation: createReplayFetch(spotRoutes).fetchImplementation };
  const sources: Record<string, VenueDepthSource> = { bybit: ccxtDepthSource("bybit", perp) };
  sources[spotVenue] = { ...(sources[spotVenue] ?? ccxtDepthSource(spotVenue, spot)), spotBook: ccxtSpotBookSource(spotVenue, spot) };
  return { ...liveMarketDepth(sources, { deadlineMs }), takerFee: async () => 0.00055 };
}

/**
 * Bybit's spot BTC/USDT (bids 27,450.50 × 1.5, 27,450 × 2, 27,449.50 × 0.75; asks 27,451 × 1.2,
 * 27,451.50 × 3, 27,452 × 0.5: mid 27,450.75) against its perpetual. Different days, so the two
 * mids are far apart; each leg holds the notional at its own mid, as always. `spotBook` replaces
 * the spot book's answer.
 */
function bybitMarket(options: { spotBook?: ReplayReply; deadlineMs?: number } = {}): CarryQuoteMarket {
  const spotOverride = options.spotBook ? [{ path: "/v5/market/orderbook", query: { category: "spot" }, reply: options.spotBook }] : [];
  return replayedMarket("bybit", [...spotOverride, ...bybitSpotBookRoutes()], options.deadlineMs);
}

/**
 * The carry items of BTC against Bybit's perpetual paying `rate` every 8 h, next 1 h after NOW:
 * spot on `spotExchange` (Bybit unless said; 0.1 % taker fee, lending BTC at 0.01 % a day =
 * 3.65 % a year, 0.2 BTC lendable).
 */
function items(rate: number, spotExchange: CcxtVenueId = "bybit") {
  const perp = makeSnapshot({ exchange: "bybit", fundingRate: rate, nextFundingAt: NOW.getTime() + H, observedAt: NOW.getTime() - 60_000 });
  const spot = makeSpot({
    exchange: spotExchange,
    takerFee: 0.001,
    borrow: { asset: "BTC", rate: 0.0001, period: "day", borrowable: 0.2, source: "test", observedAt: NOW.toISOString() },
    observedAt: NOW.toISOString(),
  });
  const ranked = rankCarryOpportunities([perp], [spot]);
  const of = (type: string) => {
    const item = ranked.find((i) => i.type === type);
    if (!item) throw new Error(`no ${type} item`);
    return item;
  };
  return { spotPerp: of("spot_perp"), perpSpot: of("perp_spot") };
}

const query = (notional: number, hold_hours = 24, leverage = 2) => ({ notional, hold_hours, leverage });

describe("quoteCarryOpportunity on Bybit's replayed books", () => {
  it("prices a spot_perp: spot bought from the asks, the perpetual shorted into the bids, funding earned", async () => {
    const { figures, at } = await quoteCarryOpportunity(bybitMarket(), items(0.0001).spotPerp, query(10_000), NOW);
    expect(carryQuoteFiguresSchema.parse(figures)).toEqual(figures);
    expect(at).toEqual(NOW);
    expect(figures).toMatchObject({ type: "spot_perp", filled_notional_usd: 10_000, thin_book: false, borrow_capped: false });
    // Spot: 10,000 / 27,450.75 = 0.36428877 BTC, bought at 27,451 and sold at 27,450.5 (each a
    // quarter dollar from the mid: 2 × 0.25 × 0.36428877 = 0.18214 slippage); fees 0.1 % of
    // 10,000.09 and of 9,999.91 = 20.00.
    expect(figures.spot).toMatchObject({ side: "long", mid_price: 27450.75, taker_fee: 0.001, taker_fee_source: "venue_base_tier", borrow: null });
    expect(figures.spot.entry).toMatchObject({ side: "buy", average_price: 27451, levels: 1 });
    expect(figures.spot.exit).toMatchObject({ side: "sell", average_price: 27450.5 });
    expect(figures.spot.fees_usd).toBeCloseTo(20, 2);
    expect(figures.spot.slippage_usd).toBeCloseTo(0.18, 2);
    // Perpetual: 10,000 / 69,447.1 = 0.14399449 BTC, sold at 69,445.9 and bought back at 69,448.3
    // (1.2 from the mid each way: 0.34559); fees 0.055 % of 9,999.83 and 10,000.17 = 11.00.
    expect(figures.perp).toMatchObject({ side: "short", mid_price: 69447.1, depth_source: "venue" });
    expect(figures.perp.fees_usd).toBeCloseTo(11, 2);
    expect(figures.perp.slippage_usd).toBeCloseTo(0.35, 2);
    // Funding: 0.01 % at 1 h, 9 h and 17 h of the 24 = 3 × 1.00 earned short; cost 31.5277.
    expect(figures.funding_usd).toBeCloseTo(3, 6);
    expect(figures.borrow_usd).toBe(0);
    expect(figures.cost_usd).toBeCloseTo(31.53, 2);
    expect(figures.net_usd).toBeCloseTo(-28.53, 2);
  });

  it("prices a perp_spot: the base borrowed and sold, capped by the 0.2 BTC lent, the borrow paid over the horizon", async () => {
    const { figures } = await quoteCarryOpportunity(bybitMarket(), items(-0.0002).perpSpot, query(10_000), NOW);
    // 0.2 BTC at the spot mid 27,450.75 = 5,490.15: both legs are priced at that.
    expect(figures).toMatchObject({ type: "perp_spot", filled_notional_usd: 5490.15, thin_book: false, borrow_capped: true });
    expect(figures.spot).toMatchObject({ side: "short", entry: { side: "sell", average_price: 27450.5 }, exit: { side: "buy", average_price: 27451 } });
    // 3.65 % a year (0.01 % a day, as the item's borrow_apr) on 5,490.15 for 24 h: 5,490.15 × 0.0365 × 24 / 8,760 = 0.549015.
    expect(figures.spot.borrow).toMatchObject({ borrow_apr: 3.65, borrowable: 0.2, quantity: 0.2 });
    expect(figures.borrow_usd).toBeCloseTo(0.549, 3);
    // The long perpetual receives −0.02 % three times: 3 × 0.0002 × 5,490.15 = 3.29409.
    expect(figures.perp.side).toBe("long");
    expect(figures.funding_usd).toBeCloseTo(3.294, 3);
    // Spot fees 0.2 × (27,450.5 + 27,451) × 0.1 % = 10.9803, slippage 2 × 0.25 × 0.2 = 0.1; perpetual
    // fees 2 × 5,490.15 × 0.055 % = 6.0392, slippage 2 × 1.2 × 0.0790556 = 0.18973: cost 17.3092.
    expect(figures.cost_usd).toBeCloseTo(17.31, 2);
    // Net: 3.29409 − 0.549015 − 17.3092 = −14.5641.
    expect(figures.net_usd).toBeCloseTo(-14.56, 2);
  });

  it("answers 503 naming the venue when the spot book does not come in time", async () => {
    const error = await quoteCarryOpportunity(bybitMarket({ spotBook: { hang: true }, deadlineMs: 150 }), items(0.0001).spotPerp, query(1_000), NOW).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(AppError);
    expect(error).toMatchObject({ code: "VENUE_UNAVAILABLE", status: 503, message: "bybit did not send the spot order book of BTC/USDT within 150 ms" });
  });

  it("refuses a leverage above what the perpetual's venue allows, naming it", async () => {
    const market = { ...bybitMarket(), marginTable: async () => ({ available: false as const, reason: "not_published" as const, detail: "x", maxLeverage: 5 }) };
    await expect(quoteCarryOpportunity(market, items(0.0001).spotPerp, query(1_000, 24, 10), NOW)).rejects.toMatchObject({ code: "VALIDATION_ERROR" });
  });
});

describe("quoteCarryOpportunity walking other venues' recorded spot books against Bybit's perpetual", () => {
  // KuCoin's (2024-03-08) and Bitget's (2024-02-01) BTC/USDT spot books as ccxt's developers
  // recorded them, two levels a side: 1,000 USD fills on the best level each way.
  it.each([
    { venue: "kucoinfutures" as const, routes: kucoinSpotBookRoutes, bid: 67539.7, ask: 67539.8, mid: 67539.75 },
    { venue: "bitget" as const, routes: bitgetSpotBookRoutes, bid: 42604.36, ask: 42604.37, mid: 42604.365 },
  ])("prices $venue's spot leg of a spot_perp from its book", async ({ venue, routes, bid, ask, mid }) => {
    const { figures } = await quoteCarryOpportunity(replayedMarket(venue, routes()), items(0.0001, venue).spotPerp, query(1_000), NOW);
    expect(figures).toMatchObject({ type: "spot_perp", filled_notional_usd: 1_000, thin_book: false });
    expect(figures.spot).toMatchObject({ side: "long", mid_price: mid, taker_fee: 0.001, borrow: null });
    expect(figures.spot.entry).toMatchObject({ side: "buy", average_price: ask, levels: 1 });
    expect(figures.spot.exit).toMatchObject({ side: "sell", average_price: bid, levels: 1 });
    // 1,000 / mid BTC, half the spread (0.05 at KuCoin, 0.005 at Bitget) from the mid each way; fees 0.1 % of about 1,000 twice.
    expect(figures.spot.slippage_usd).toBeCloseTo(((ask - bid) * 1_000) / mid, 6);
    expect(figures.spot.fees_usd).toBeCloseTo(2, 2);
    expect(figures.perp).toMatchObject({ side: "short", mid_price: 69447.1, depth_source: "venue" });
  });
});

describe("quoteCarryOpportunity on the offline sample and the sandbox", () => {
  it("quotes the sample's Bybit BTC/USDT carry from its recorded books, labelled as recordings of their days", async () => {
    const market = { ...recordedMarketDepth(), takerFee: async () => null };
    const { figures } = await quoteCarryOpportunity(market, items(0.0001).spotPerp, query(1_000), NOW);
    // The spot book of 2024-03-08 and the perpetual's of 2024-04-01, each stamped with its own day.
    expect(figures.perp).toMatchObject({ depth_source: "recording", depth_timestamp: "2024-04-01T08:38:21.415Z", taker_fee_source: "default" });
    expect(figures.spot.mid_price).toBe(27450.75);
    // A spot market the sample has no recording of is a 503 saying so.
    const okx = { ...items(0.0001).spotPerp, spot: { ...items(0.0001).spotPerp.spot, exchange: "okx" as const } };
    await expect(quoteCarryOpportunity(market, okx, query(1_000), NOW)).rejects.toMatchObject({ code: "VENUE_UNAVAILABLE" });
  });

  it("quotes a sandbox carry item from generated books, the same all minute", async () => {
    const clock = () => new Date("2026-11-24T07:00:30Z");
    const market = sandboxMarket(clock);
    const item = sandboxCarrySnapshot(clock()).allItems().find((i) => i.type === "perp_spot");
    if (!item) throw new Error("the sandbox has a perp_spot item");
    const first = await quoteCarryOpportunity(market, item, query(50_000), clock());
    const again = await quoteCarryOpportunity(market, item, query(50_000), new Date("2026-11-24T07:00:59Z"));
    expect(again.figures).toEqual(first.figures);
    expect(first.at.toISOString()).toBe("2026-11-24T07:00:00.000Z");
    // The spot book is its own, around the spot price (within 15 bps of the perpetual's mark), not the perpetual's.
    expect(first.figures.spot.mid_price).not.toBe(first.figures.perp.mid_price);
    expect(Math.abs(first.figures.spot.mid_price! / item.spot.price - 1)).toBeLessThan(0.001);
    expect(first.figures.spot.borrow?.borrow_apr).toBe(item.borrow_apr);
  });
});
