import { describe, expect, it } from "vitest";
import { SANDBOX_STALE_AFTER_MS, sandboxMarket } from "./sandbox-market";
import { SANDBOX_EDGE_CASES } from "./edge-cases";

const NOW = new Date("2026-11-20T12:34:00Z");
const HOUR = 3_600_000;
const market = sandboxMarket(() => NOW);

describe("the sandbox market (what test keys read)", () => {
  it("serves the generated opportunity set of the clock's minute", async () => {
    const snapshot = await market.opportunities();
    expect(snapshot.items.length).toBeGreaterThan(0);
    expect(snapshot.sample).toBe(false);
    expect(snapshot.asOf).toBe("2026-11-20T12:34:00.000Z");
  });

  it("gives a leg's settlements of its own market within the range, oldest first", async () => {
    const { long, symbol } = (await market.opportunities()).items[0]!;
    const from = new Date(NOW.getTime() - 48 * HOUR);
    const rows = await market.settlements(symbol, long, from, NOW);
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) {
      expect(row).toMatchObject({ exchange: long.exchange, market: long.market, symbol, source: "sandbox" });
      expect(Date.parse(row.time)).toBeGreaterThanOrEqual(from.getTime());
      expect(Date.parse(row.time)).toBeLessThanOrEqual(NOW.getTime());
    }
    expect(rows.map((r) => r.time)).toEqual([...rows.map((r) => r.time)].sort());
  });

  it("pages one asset's settlements on a venue, counting the whole range", async () => {
    const { long, symbol } = (await market.opportunities()).items[0]!;
    const window = { exchange: long.exchange, symbol, from: new Date(NOW.getTime() - 72 * HOUR), to: NOW };
    const all = await market.settlementPage({ ...window, limit: 1000, offset: 0 });
    const page = await market.settlementPage({ ...window, limit: 3, offset: 2 });
    expect(page.total).toBe(all.total);
    expect(page.items).toEqual(all.items.slice(2, 5));
  });

  it("knows each market's taker fee, and none for a market it does not list", async () => {
    const { long } = (await market.opportunities()).items[0]!;
    expect(await market.takerFee(long, NOW)).toBeGreaterThan(0);
    expect(await market.takerFee({ exchange: long.exchange, market: "NOPE/USDT:USDT" }, NOW)).toBeNull();
  });

  it("reports its venues, one of them always stale to test against, with their data's age, and a published round", async () => {
    const status = await market.status();
    expect(status.venues.some((v) => v.status === "stale" && v.last_error?.startsWith("sandbox:"))).toBe(true);
    expect(status.last_round).toMatchObject({ status: "published", opportunities: (await market.opportunities()).items.length });
    for (const venue of status.venues) {
      expect(venue.stale_after_seconds).toBe(SANDBOX_STALE_AFTER_MS / 1000);
      expect(venue.data_age_seconds).toBe((NOW.getTime() - Date.parse(venue.last_success_at ?? "")) / 1000);
      expect(venue.status, venue.id).toBe(venue.id === SANDBOX_EDGE_CASES.staleVenue ? "stale" : "ok");
    }
    expect(status.venues.find((v) => v.id === SANDBOX_EDGE_CASES.staleVenue)?.data_age_seconds).toBeGreaterThan(SANDBOX_STALE_AFTER_MS / 1000);
  });

  it(`serves every leg on ${SANDBOX_EDGE_CASES.staleVenue} stale and every other leg fresh, at any moment of the minute`, async () => {
    const snapshot = await market.opportunities();
    const onStale = snapshot.items.filter((o) => [o.long.exchange, o.short.exchange].includes(SANDBOX_EDGE_CASES.staleVenue));
    expect(onStale.length).toBeGreaterThan(0);
    for (const at of [NOW.getTime(), NOW.getTime() + 59_999]) {
      const freshness = { at, staleAfterMs: market.venueStaleAfterMs };
      for (const o of snapshot.items) {
        const { long, short, stale } = snapshot.served(o, freshness);
        expect(long.stale, o.id).toBe(long.exchange === SANDBOX_EDGE_CASES.staleVenue);
        expect(short.stale, o.id).toBe(short.exchange === SANDBOX_EDGE_CASES.staleVenue);
        expect(stale, o.id).toBe(onStale.includes(o));
      }
    }
  });

  it("lists the interval-shift fixture's change at each UTC midnight of its 7 days, agreeing with its settlements and legs", async () => {
    const { intervalShift } = SANDBOX_EDGE_CASES;
    const window = { from: new Date(NOW.getTime() - 10 * 24 * HOUR), to: NOW, limit: 100, offset: 0 };
    const { items, total } = await market.intervalChanges(window);
    // 2026-11-14 … 2026-11-20 00:00Z: the seven midnights within 168 h of 12:34 on the 20th.
    expect(total).toBe(7);
    expect(items.map((c) => c.effective_at)).toEqual([14, 15, 16, 17, 18, 19, 20].map((d) => `2026-11-${d}T00:00:00.000Z`));
    const day = Date.UTC(2026, 10, 20) / (24 * HOUR); // 20,777: odd, so hourly since midnight
    expect(day % 2).toBe(1);
    expect(items.at(-1)).toEqual({
      exchange: intervalShift.venue,
      market: "SBXSHIFT/USDT:USDT",
      symbol: intervalShift.base,
      effective_at: "2026-11-20T00:00:00.000Z",
      from_hours: intervalShift.hours.evenDays,
      to_hours: intervalShift.hours.oddDays,
      source: "venue",
      detected_at: "2026-11-20T00:01:00.000Z",
    });
    // The settlements say the same, each with the interval it closed: the 18th's last hour at
    // midnight, the 19th's six 4h intervals (the last at midnight on the 20th), then hourly.
    const settled = await market.settlements(intervalShift.base, { exchange: intervalShift.venue, market: "SBXSHIFT/USDT:USDT" }, new Date(Date.UTC(2026, 10, 19)), NOW);
    expect(settled.map((r) => [r.time.slice(8, 16), r.funding_interval_hours])).toEqual([
      ["19T00:00", 1],
      ...["19T04:00", "19T08:00", "19T12:00", "19T16:00", "19T20:00", "20T00:00"].map((t) => [t, 4]),
      ...Array.from({ length: 12 }, (_, h) => [`20T${String(h + 1).padStart(2, "0")}:00`, 1]),
    ]);
    const legs = (await market.opportunities()).items.flatMap((o) => [o.long, o.short]);
    const shifting = legs.filter((l) => l.market === "SBXSHIFT/USDT:USDT" && l.exchange === intervalShift.venue);
    expect(shifting.length).toBeGreaterThan(0);
    for (const leg of shifting) expect(leg).toMatchObject({ funding_interval_hours: 1, interval_changed_at: "2026-11-20T00:00:00.000Z" });
    expect(legs.filter((l) => l.market !== "SBXSHIFT/USDT:USDT" || l.exchange !== intervalShift.venue).every((l) => l.interval_changed_at === null)).toBe(true);
  });

  it("gives each leg its last settlement from the settlement history, and the interval-shift fixture sits at its cap on hourly days", async () => {
    const { items } = await market.opportunities();
    const [first] = items;
    if (!first) throw new Error("no opportunity");
    const history = await market.settlements(first.symbol, first.long, new Date(NOW.getTime() - 24 * HOUR), NOW);
    expect(first.long).toMatchObject({ last_settled_rate: history.at(-1)?.funding_rate, last_settled_at: history.at(-1)?.time });
    // 2026-11-20 is an odd day: SBXSHIFT settles hourly on binance, at its cap (0.75 %/8h = 0.09375 %/h).
    const shifting = items.flatMap((o) => [o.long, o.short]).find((l) => l.market === "SBXSHIFT/USDT:USDT" && l.exchange === "binance");
    expect(shifting).toMatchObject({ funding_rate: 0.00093750, rate_cap: 0.0009375, rate_floor: -0.0009375, predicted_funding_rate: 0.0009375, at_cap: true });
  });

  it("filters interval changes by exchange and asset, and pages them", async () => {
    const window = { from: new Date(NOW.getTime() - 7 * 24 * HOUR), to: NOW, limit: 100, offset: 0 };
    expect((await market.intervalChanges({ ...window, exchange: "bybit" })).total).toBe(0);
    expect((await market.intervalChanges({ ...window, symbol: "BTC" })).total).toBe(0);
    const all = await market.intervalChanges({ ...window, exchange: "binance", symbol: "SBXSHIFT" });
    const page = await market.intervalChanges({ ...window, limit: 2, offset: 3 });
    expect(page).toEqual({ items: all.items.slice(3, 5), total: all.total });
    // A midnight less than a minute old has not been seen yet.
    const justAfter = sandboxMarket(() => new Date("2026-11-20T00:00:30Z"));
    expect((await justAfter.intervalChanges({ ...window, to: new Date("2026-11-20T00:00:30Z") })).items.at(-1)?.effective_at).toBe("2026-11-19T00:00:00.000Z");
  });
});
