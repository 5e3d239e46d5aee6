import { describe, expect, it } from "vitest";
import { createReplayFetch, type ReplayRoute } from "../replay-fetch";
import { VENUE_REPLAYS } from "@/tests/fixtures/venues/venue-replay-table";
import { lighterOrderBookDetails } from "@/tests/fixtures/venues/replays/lighter";
import { fetchVenueSnapshot, MARKETS_TTL_MS, marketsDue, reloadDueMarketLists } from "./fetch-venue-snapshot";

const T0 = Date.UTC(2026, 10, 24, 12);

describe("a kept client's market list", () => {
  it("is due inside the refresh when never loaded, once a refresh met a market it lacks, or twice MARKETS_TTL_MS old; after the round once MARKETS_TTL_MS old", () => {
    expect(marketsDue(undefined, T0)).toBe("now");
    expect(marketsDue({ loadedAt: T0, lacking: new Set() }, T0 + MARKETS_TTL_MS - 1)).toBeUndefined();
    expect(marketsDue({ loadedAt: T0, lacking: new Set() }, T0 + MARKETS_TTL_MS)).toBe("apart");
    expect(marketsDue({ loadedAt: T0, lacking: new Set() }, T0 + 2 * MARKETS_TTL_MS - 1)).toBe("apart");
    expect(marketsDue({ loadedAt: T0, lacking: new Set() }, T0 + 2 * MARKETS_TTL_MS)).toBe("now");
    expect(marketsDue({ loadedAt: T0, lacking: new Set(["ETH/USDT:USDT"]) }, T0 + 1)).toBe("now");
  });

  it("is loaded once, reused until due, then reloaded apart from the refreshes (inside one only once twice as old), and every refresh still fetches funding", async () => {
    const replay = createReplayFetch(VENUE_REPLAYS.okx());
    let now = T0;
    const refresh = () =>
      fetchVenueSnapshot("okx", { fetchImplementation: replay.fetchImplementation, enableRateLimit: false, keepClient: true, now: () => now });
    const count = (path: string) => replay.requests.filter((request) => request.path === path).length;
    for (const at of [T0, T0 + 60_000, T0 + MARKETS_TTL_MS - 1]) {
      now = at;
      expect((await refresh()).status).toBe("ok");
    }
    expect(count("/api/v5/public/instruments")).toBe(1);
    expect(count("/api/v5/public/funding-rate")).toBe(3);
    // Due: this refresh reads the list it has, and the round reloads it once it has published.
    now = T0 + MARKETS_TTL_MS;
    expect((await refresh()).status).toBe("ok");
    expect(count("/api/v5/public/instruments")).toBe(1);
    expect(await reloadDueMarketLists(() => now)).toBeGreaterThanOrEqual(1);
    expect(count("/api/v5/public/instruments")).toBe(2);
    expect(await reloadDueMarketLists(() => now)).toBe(0);
    // Reused for MARKETS_TTL_MS from its reload.
    now = T0 + 2 * MARKETS_TTL_MS - 1;
    await refresh();
    expect(count("/api/v5/public/instruments")).toBe(2);
    // With no reload apart (none asked for), a list twice that old is reloaded inside the refresh.
    now = T0 + 3 * MARKETS_TTL_MS;
    await refresh();
    expect(count("/api/v5/public/instruments")).toBe(3);
    expect(count("/api/v5/public/funding-rate")).toBe(6);
  });

  it("is read as reloaded once due: a market gone from the venue's list is gone from the snapshots", async () => {
    const routes = VENUE_REPLAYS.okx();
    const instruments = routes.find((route) => route.path === "/api/v5/public/instruments");
    if (!instruments || !("body" in instruments.reply)) throw new Error("no instruments route");
    const listed = JSON.parse(String(instruments.reply.body)) as { data: { instId: string }[] };
    const replay = createReplayFetch([{ ...instruments, reply: { body: listed } }, ...routes.filter((route) => route !== instruments)]);
    const refresh = async (at: number) => {
      const result = await fetchVenueSnapshot("okx", { fetchImplementation: replay.fetchImplementation, enableRateLimit: false, keepClient: true, now: () => at });
      if (result.status !== "ok") throw new Error(result.error);
      return result;
    };
    expect((await refresh(T0)).snapshots.map((s) => s.market)).toContain("ETH/USDT:USDT");
    // Replies are made at each request: from now on the venue lists no ETH swap.
    listed.data = listed.data.filter((row) => row.instId !== "ETH-USDT-SWAP");
    expect((await refresh(T0 + 60_000)).snapshots.map((s) => s.market)).toContain("ETH/USDT:USDT");
    expect((await refresh(T0 + MARKETS_TTL_MS)).snapshots.map((s) => s.market)).toContain("ETH/USDT:USDT");
    await reloadDueMarketLists(() => T0 + MARKETS_TTL_MS);
    const reloaded = await refresh(T0 + MARKETS_TTL_MS + 60_000);
    expect(reloaded.snapshots.map((s) => s.market)).not.toContain("ETH/USDT:USDT");
    expect(reloaded.excluded.unlisted).toBe(1);
  });

  it("is reloaded on the next refresh after funding rows named a market it lacks, once for each such market", async () => {
    const routes = VENUE_REPLAYS.okx();
    // Instruments without ETH-USDT-SWAP, whose funding row then names an unlisted market.
    const instruments = routes.find((route) => route.path === "/api/v5/public/instruments");
    if (!instruments || !("body" in instruments.reply)) throw new Error("no instruments route");
    const body = JSON.parse(String(instruments.reply.body)) as { data: { instId: string }[] };
    const without = { ...body, data: body.data.filter((row) => row.instId !== "ETH-USDT-SWAP") };
    const partial = createReplayFetch([{ ...instruments, reply: { body: without } }, ...routes.filter((route) => route !== instruments)]);
    const refresh = (at: number) =>
      fetchVenueSnapshot("okx", { fetchImplementation: partial.fetchImplementation, enableRateLimit: false, keepClient: true, now: () => at });
    const listRequests = () => partial.requests.filter((request) => request.path === "/api/v5/public/instruments").length;
    const first = await refresh(T0);
    expect(first.status === "ok" && first.excluded.unlisted).toBe(1);
    await refresh(T0 + 60_000);
    expect(listRequests()).toBe(2);
    // The reloaded list lacks it too: it waits for the next timed reload rather than costing a
    // list request every refresh.
    await refresh(T0 + 120_000);
    await refresh(T0 + 180_000);
    expect(listRequests()).toBe(2);
    // A market the list has never been reloaded for lacking (a new listing's funding row, say)
    // has it reloaded once more. Replies are made at each request, so the venue answers with it now.
    const funding = routes.find((route) => route.path === "/api/v5/public/funding-rate");
    if (!funding || !("body" in funding.reply)) throw new Error("no funding route");
    const rows = (funding.reply.body as { data: Row[] }).data;
    rows.push({ ...rows[0], instId: "NEW-USDT-SWAP" });
    const fourth = await refresh(T0 + 240_000);
    expect(fourth.status === "ok" && fourth.excluded.unlisted).toBe(2);
    await refresh(T0 + 300_000);
    await refresh(T0 + 360_000);
    expect(listRequests()).toBe(3);
  });

});

type Row = Record<string, unknown>;

/**
 * Venues whose market list is also their funding payload: the adapter requests that list raw on
 * every refresh for the rates, while ccxt's parsed list is reused like any other venue's.
 */
const RAW_LIST_VENUES = {
  gate: {
    path: "/api/v4/futures/usdt/contracts",
    rows: (body: unknown) => body as Row[],
    withRows: (_body: unknown, rows: Row[]): unknown => rows,
    setRate: (row: Row, rate: string): Row => ({ ...row, funding_rate: rate }),
    listing: (row: Row): Row => ({ ...row, name: "NEWCOIN_USDT" }),
    newId: "NEWCOIN_USDT",
  },
  dydx: {
    path: "/v4/perpetualMarkets",
    rows: (body: unknown) => Object.values((body as { markets: Record<string, Row> }).markets),
    withRows: (_body: unknown, rows: Row[]): unknown => ({ markets: Object.fromEntries(rows.map((row) => [String(row.ticker), row])) }),
    setRate: (row: Row, rate: string): Row => ({ ...row, nextFundingRate: rate }),
    listing: (row: Row): Row => ({ ...row, ticker: "NEWCOIN-USD", clobPairId: "999" }),
    newId: "NEWCOIN-USD",
  },
  extended: {
    path: "/api/v1/info/markets",
    rows: (body: unknown) => (body as { data: Row[] }).data,
    withRows: (body: unknown, rows: Row[]): unknown => ({ ...(body as Row), data: rows }),
    setRate: (row: Row, rate: string): Row => ({ ...row, marketStats: { ...(row.marketStats as Row), fundingRate: rate } }),
    listing: (row: Row): Row => ({ ...row, name: "NEWCOIN-USD", uiName: "NEWCOIN-USD", assetName: "NEWCOIN" }),
    newId: "NEWCOIN-USD",
  },
  kucoinfutures: {
    path: "/api/v1/contracts/active",
    rows: (body: unknown) => (body as { data: Row[] }).data,
    withRows: (body: unknown, rows: Row[]): unknown => ({ ...(body as Row), data: rows }),
    setRate: (row: Row, rate: string): Row => ({ ...row, fundingFeeRate: rate }),
    listing: (row: Row): Row => ({ ...row, symbol: "NEWCOINUSDTM", baseCurrency: "NEWCOIN" }),
    newId: "NEWCOINUSDTM",
  },
} as const;

/** The venue's replay with its market list served from a reply the test can swap between refreshes. */
function rawListReplay(venue: keyof typeof RAW_LIST_VENUES) {
  const spec = RAW_LIST_VENUES[venue];
  const routes = VENUE_REPLAYS[venue]();
  const listRoute = routes.find((route) => route.path === spec.path);
  if (!listRoute || !("body" in listRoute.reply)) throw new Error(`no ${spec.path} route`);
  const raw = listRoute.reply.body;
  const body: unknown = typeof raw === "string" ? JSON.parse(raw) : raw;
  const rows = spec.rows(body);
  const list: ReplayRoute = { ...listRoute, reply: { body } };
  const replay = createReplayFetch([list, ...routes.filter((route) => route !== listRoute)]);
  let now = T0;
  return {
    /** Serves the list with every row's rate set to `rate`, and the extra listing when asked. */
    /** Answers the next list requests with HTTP 500. */
    fail() {
      list.reply = { status: 500, body: "Internal Server Error" };
    },
    serve(rate: string | null, extra = false) {
      const edited = rate === null ? rows : rows.map((row) => spec.setRate(row, rate));
      const first = edited[0];
      if (!first) throw new Error("empty list");
      list.reply = { body: spec.withRows(body, extra ? [...edited, spec.listing(first)] : edited) };
    },
    refresh: (at: number) => {
      now = at;
      return fetchVenueSnapshot(venue, { fetchImplementation: replay.fetchImplementation, enableRateLimit: false, keepClient: true, now: () => now });
    },
    listRequests: () => replay.requests.filter((request) => request.path === spec.path).length,
  };
}

describe.each(Object.keys(RAW_LIST_VENUES) as (keyof typeof RAW_LIST_VENUES)[])(
  "%s, whose market list is its funding payload",
  (venue) => {
    it("reads fresh rates from the raw list on every refresh while the parsed market list is reused", async () => {
      const replay = rawListReplay(venue);
      replay.serve("0.0001");
      const first = await replay.refresh(T0);
      expect(first.status === "ok" && first.snapshots.every((snapshot) => snapshot.fundingRate === 0.0001)).toBe(true);
      // The list is loaded as markets, then requested raw for the rates.
      expect(replay.listRequests()).toBe(2);
      replay.serve("-0.0002");
      const second = await replay.refresh(T0 + 60_000);
      // Every rate is the new one: none repeats from the refresh before.
      expect(second.status === "ok" && second.snapshots.length).toBeGreaterThan(0);
      expect(second.status === "ok" && second.snapshots.every((snapshot) => snapshot.fundingRate === -0.0002)).toBe(true);
      expect(second.status === "ok" && second.excluded.unlisted).toBe(0);
      // One raw request; the parsed list is reused.
      expect(replay.listRequests()).toBe(3);
      await replay.refresh(T0 + MARKETS_TTL_MS - 1);
      expect(replay.listRequests()).toBe(4);
      // Due: the refresh asks the raw list alone, and the market list is reloaded after the round.
      await replay.refresh(T0 + MARKETS_TTL_MS);
      expect(replay.listRequests()).toBe(5);
      await reloadDueMarketLists(() => T0 + MARKETS_TTL_MS);
      expect(replay.listRequests()).toBe(6);
    });

    it("is stale when the raw list fails on a refresh that reuses the parsed markets", async () => {
      const replay = rawListReplay(venue);
      replay.serve(null);
      expect((await replay.refresh(T0)).status).toBe("ok");
      replay.fail();
      const failed = await replay.refresh(T0 + 60_000);
      expect(failed.status).toBe("stale");
      expect(failed).not.toHaveProperty("snapshots");
      // Only the raw request was made: the markets were reused, not reloaded.
      expect(replay.listRequests()).toBe(3);
    });

    it("counts a raw row the loaded list lacks as unlisted and reloads the list on the next refresh", async () => {
      const replay = rawListReplay(venue);
      replay.serve(null);
      expect((await replay.refresh(T0)).status).toBe("ok");
      // A listing made after the market list was loaded.
      replay.serve(null, true);
      const met = await replay.refresh(T0 + 60_000);
      expect(met.status === "ok" && met.excluded.unlisted).toBe(1);
      expect(met.status === "ok" && met.snapshots.some((snapshot) => snapshot.venueMarketId === RAW_LIST_VENUES[venue].newId)).toBe(false);
      expect(replay.listRequests()).toBe(3);
      const reloaded = await replay.refresh(T0 + 120_000);
      expect(replay.listRequests()).toBe(5);
      expect(reloaded.status === "ok" && reloaded.excluded.unlisted).toBe(0);
      expect(reloaded.status === "ok" && reloaded.snapshots.some((snapshot) => snapshot.venueMarketId === RAW_LIST_VENUES[venue].newId)).toBe(true);
    });
  },
);

describe("a venue whose market list is also its funding payload", () => {
  it("Hyperliquid: its contexts are asked again each refresh while its list is kept", async () => {
    const routes = VENUE_REPLAYS.hyperliquid();
    const contexts = routes.find((route) => (route.body as { type?: string } | undefined)?.type === "metaAndAssetCtxs");
    if (!contexts || !("body" in contexts.reply)) throw new Error("no metaAndAssetCtxs route");
    const payload = JSON.parse(String(contexts.reply.body)) as [{ universe: { name: string }[] }, Record<string, unknown>[]];
    const replay = createReplayFetch([{ ...contexts, reply: { body: payload } }, ...routes.filter((route) => route !== contexts)]);
    const refresh = async (at: number) => {
      const result = await fetchVenueSnapshot("hyperliquid", { fetchImplementation: replay.fetchImplementation, enableRateLimit: false, keepClient: true, now: () => at });
      if (result.status !== "ok") throw new Error(result.error);
      return result.snapshots.find((snapshot) => snapshot.base === "BTC")!;
    };
    const btc = payload[0].universe.findIndex((coin) => coin.name === "BTC");
    const first = await refresh(T0);
    // A minute later the venue's BTC context has moved; the kept list still holds the old one.
    payload[1][btc] = { ...payload[1][btc], funding: "0.0000987", markPx: "123456.0" };
    const second = await refresh(T0 + 60_000);
    expect(second.fundingRate).not.toBe(first.fundingRate);
    expect(second.fundingRate).toBe(0.0000987);
    expect(second.markPrice).toBe(123456);
    const asked = replay.requests.filter((request) => (request.body as { type?: string } | undefined)?.type === "metaAndAssetCtxs").length;
    expect(asked).toBe(3); // the list once, then the contexts at each of the two refreshes
  });

  it("Lighter: its orderBookDetails statistics are asked again each refresh while its list is kept", async () => {
    const details = lighterOrderBookDetails() as { order_book_details: Record<string, unknown>[] };
    const replay = createReplayFetch([
      { path: "/api/v1/orderBookDetails", reply: { body: details } },
      ...VENUE_REPLAYS.lighter().filter((route) => route.path !== "/api/v1/orderBookDetails"),
    ]);
    const refresh = async (at: number) => {
      const result = await fetchVenueSnapshot("lighter", { fetchImplementation: replay.fetchImplementation, enableRateLimit: false, keepClient: true, now: () => at });
      if (result.status !== "ok") throw new Error(result.error);
      return result.snapshots.find((snapshot) => snapshot.base === "BTC")!;
    };
    await refresh(T0);
    // The replay's funding names a market the list lacks (TON), so this refresh reloads the list once.
    const first = await refresh(T0 + 30_000);
    const btc = details.order_book_details.findIndex((row) => row.symbol === "BTC");
    details.order_book_details[btc] = { ...details.order_book_details[btc], open_interest: 2000, last_trade_price: 100000, daily_quote_token_volume: 5e8 };
    const second = await refresh(T0 + 60_000);
    expect(first.openInterestUsd).not.toBe(2e8);
    expect(second.openInterestUsd).toBe(2e8);
    expect(second.volume24hUsd).toBe(5e8);
  });
});

/**
 * HTTP venues whose market list is a request of its own (`keepsMarketList`): the request that
 * lists markets, and the one each refresh reads funding from.
 */
const KEPT_HTTP_LISTS = {
  derive: { list: "/public/get_all_instruments", funding: "/public/get_ticker" },
  edgex: { list: "/api/v2/public/meta/getMetaData", funding: "/api/v2/public/funding/getLatestFundingRate" },
  ethereal: { list: "/v1/product", funding: "/v1/funding/projected-rate" },
  orderly: { list: "/v1/public/info", funding: "/v1/public/funding_rates" },
} as const;

describe.each(Object.keys(KEPT_HTTP_LISTS) as (keyof typeof KEPT_HTTP_LISTS)[])("%s, an HTTP venue whose market list is a request of its own", (venue) => {
  it("keeps its list as a ccxt venue does while every refresh asks for funding", async () => {
    const { list, funding } = KEPT_HTTP_LISTS[venue];
    const replay = createReplayFetch(VENUE_REPLAYS[venue]());
    let now = T0;
    const refresh = async (at: number) => {
      now = at;
      const result = await fetchVenueSnapshot(venue, { fetchImplementation: replay.fetchImplementation, enableRateLimit: false, keepClient: true, now: () => now });
      if (result.status !== "ok") throw new Error(result.error);
      return result;
    };
    const count = (path: string) => replay.requests.filter((request) => request.path === path).length;
    // Orderly's recorded funding names markets its recorded list lacks: the second refresh reloads the list for them, once.
    await refresh(T0 - 60_000);
    const before = { list: count(list), funding: count(funding) };
    const first = await refresh(T0);
    const listed = count(list);
    expect(listed).toBeGreaterThan(0);
    const fundingAsked = count(funding) - before.funding;
    expect(fundingAsked).toBeGreaterThan(0);
    const again = await refresh(T0 + 60_000);
    // The kept list judges the same markets, with the same funding terms.
    const terms = (snapshots: typeof first.snapshots) => snapshots.map((s) => [s.market, s.fundingRate, s.fundingIntervalHours, s.rateCap, s.rateFloor, s.takerFee]);
    expect(terms(again.snapshots)).toEqual(terms(first.snapshots));
    expect(count(list)).toBe(listed);
    expect(count(funding)).toBe(before.funding + 2 * fundingAsked);
    // Due after MARKETS_TTL_MS: reloaded once the round has published, not inside the refresh.
    await refresh(T0 + MARKETS_TTL_MS);
    expect(count(list)).toBe(listed);
    expect(await reloadDueMarketLists(() => now)).toBeGreaterThanOrEqual(1);
    expect(count(list)).toBe(listed + before.list);
  });

  it("loads its list on every refresh when the client is not kept", async () => {
    const replay = createReplayFetch(VENUE_REPLAYS[venue]());
    const lists = () => replay.requests.filter((request) => request.path === KEPT_HTTP_LISTS[venue].list).length;
    // Three refreshes, each asking the whole list (its pages) again: a kept list would be asked
    // once, or twice where the recorded funding names markets the list lacks (Orderly).
    const asked: number[] = [];
    for (const at of [T0, T0 + 60_000, T0 + 120_000]) {
      expect((await fetchVenueSnapshot(venue, { fetchImplementation: replay.fetchImplementation, enableRateLimit: false, now: () => at })).status).toBe("ok");
      asked.push(lists());
    }
    expect(asked[0]).toBeGreaterThan(0);
    expect(asked).toEqual([asked[0], 2 * asked[0]!, 3 * asked[0]!]);
  });
});

describe("an HTTP venue whose market list is its funding payload", () => {
  it("BitMEX: its instrument list is asked on every refresh", async () => {
    const replay = createReplayFetch(VENUE_REPLAYS.bitmex());
    for (const at of [T0, T0 + 60_000, T0 + 120_000]) {
      expect((await fetchVenueSnapshot("bitmex", { fetchImplementation: replay.fetchImplementation, enableRateLimit: false, keepClient: true, now: () => at })).status).toBe("ok");
    }
    expect(replay.requests.filter((request) => request.path === "/api/v1/instrument/active").length).toBe(3);
  });
});
