import { describe, expect, it } from "vitest";
import { parseQuery } from "@/lib/query-params";
import type { PublicEvent } from "./event-types";
import { streamMatches, streamQuery } from "./stream-filter";

const event = (type: PublicEvent["type"], data: Record<string, unknown>, mode: PublicEvent["mode"] = "live"): PublicEvent => ({
  id: "evt_0000000000000001",
  type,
  mode,
  created_at: "2026-11-20T12:00:00.000Z",
  data,
});
const opportunity = (symbol: string, apr: number, long: string, short: string) => ({
  opportunity: { symbol, apr, long: { exchange: long }, short: { exchange: short } },
});
const opened = event("opportunity.opened", opportunity("BTC", 20, "binance", "okx"));
const closed = event("opportunity.closed", { id: "x", symbol: "ETH", last_apr: 8, last_net_apr: 3, long: { exchange: "bybit", market: "m" }, short: { exchange: "okx", market: "m" } });
const interval = event("funding_interval.changed", { change: { exchange: "binance", symbol: "SOL" } });
const venue = event("venue.stale", { exchange: "gate", status: "stale", last_success_at: null, error: "x" });

describe("streamMatches", () => {
  it("keeps to the key's mode and the types asked for", () => {
    expect(streamMatches(opened, { mode: "live" })).toBe(true);
    expect(streamMatches(opened, { mode: "test" })).toBe(false);
    expect(streamMatches(opened, { mode: "live", types: ["opportunity.closed"] })).toBe(false);
    expect(streamMatches(closed, { mode: "live", types: ["opportunity.closed"] })).toBe(true);
  });

  it("applies exchange to either leg and exchanges to both, for every event with exchanges", () => {
    expect(streamMatches(opened, { mode: "live", exchange: "okx" })).toBe(true);
    expect(streamMatches(opened, { mode: "live", exchange: "bybit" })).toBe(false);
    expect(streamMatches(opened, { mode: "live", exchanges: ["binance", "okx"] })).toBe(true);
    expect(streamMatches(opened, { mode: "live", exchanges: ["binance", "bybit"] })).toBe(false);
    expect(streamMatches(interval, { mode: "live", exchange: "binance" })).toBe(true);
    expect(streamMatches(venue, { mode: "live", exchange: "binance" })).toBe(false);
    expect(streamMatches(venue, { mode: "live", exchanges: ["gate", "okx"] })).toBe(true);
  });

  it("applies symbol and min_apr where the event has them, and lets other types pass", () => {
    expect(streamMatches(opened, { mode: "live", symbol: "BTC", min_apr: 20 })).toBe(true);
    expect(streamMatches(opened, { mode: "live", min_apr: 20.01 })).toBe(false);
    expect(streamMatches(closed, { mode: "live", min_apr: 9 })).toBe(false);
    expect(streamMatches(closed, { mode: "live", min_apr: 8 })).toBe(true);
    expect(streamMatches(interval, { mode: "live", symbol: "BTC" })).toBe(false);
    expect(streamMatches(venue, { mode: "live", symbol: "BTC", min_apr: 50 })).toBe(true);
  });

  it("filters carry events by their spot and perpetual venues, asset and APR", () => {
    const carryOpened = event("carry_opportunity.updated", { opportunity: { symbol: "SOL", apr: 12, spot: { exchange: "okx" }, perp: { exchange: "bybit" } }, previous_net_apr: 3 });
    const carryClosed = event("carry_opportunity.closed", { id: "x", symbol: "SOL", type: "spot_perp", last_apr: 6, last_net_apr: 1, spot: { exchange: "okx", market: "m" }, perp: { exchange: "okx", market: "p" } });
    expect(streamMatches(carryOpened, { mode: "live", exchange: "bybit", symbol: "SOL", min_apr: 12 })).toBe(true);
    expect(streamMatches(carryOpened, { mode: "live", exchanges: ["okx"] })).toBe(false);
    expect(streamMatches(carryOpened, { mode: "live", symbol: "BTC" })).toBe(false);
    expect(streamMatches(carryClosed, { mode: "live", exchanges: ["okx"], min_apr: 6 })).toBe(true);
    expect(streamMatches(carryClosed, { mode: "live", min_apr: 7 })).toBe(false);
  });

  it("filters an alert by the market event it matched", () => {
    const alert = event("alert.triggered", { rule: { id: "r", name: "n" }, subject: "x", event: { id: opened.id, type: opened.type, created_at: opened.created_at, data: opened.data } });
    expect(streamMatches(alert, { mode: "live", symbol: "BTC", exchange: "okx" })).toBe(true);
    expect(streamMatches(alert, { mode: "live", symbol: "ETH" })).toBe(false);
    expect(streamMatches(alert, { mode: "live", types: ["opportunity.opened"] })).toBe(false);
    expect(streamMatches(alert, { mode: "live", types: ["alert.triggered"], min_apr: 25 })).toBe(false);
  });
});

describe("streamQuery", () => {
  it("reads the opportunity filters, types and after, and refuses paging", () => {
    const url = new URL("http://x/v1/stream?symbol=btc&exchanges=okx,binance&min_apr=5&types=venue.stale,venue.stale&after=evt_0000000000000042");
    expect(parseQuery(url, streamQuery)).toEqual({ symbol: "BTC", exchanges: ["binance", "okx"], min_apr: 5, types: ["venue.stale"], after: 42n });
    expect(() => parseQuery(new URL("http://x/v1/stream?limit=5"), streamQuery)).toThrow();
  });
});
