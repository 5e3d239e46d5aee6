import { describe, expect, it } from "vitest";
import { sandboxOpportunities } from "@/lib/market/sandbox/sandbox-opportunities";
import { rankOpportunities } from "@/lib/market/opportunities/rank-opportunities";
import { columnsOf, itemsOf } from "@/lib/market/opportunities/opportunity-columns";
import { PatchedSet } from "@/lib/market/opportunities/patched-set";
import { generateSandboxMarket } from "@/lib/market/sandbox/generate-sandbox-market";
import type { Opportunity } from "@/lib/market/model/types";
import { EVENT_DATA_SCHEMAS } from "./event-data";
import { intervalChangeEvents, opportunityEvents, opportunityEventsOf, venueHealthEvents } from "./derive-events";

const AT = new Date("2026-11-20T12:00:00Z");
const [a, b, c] = sandboxOpportunities(AT).opportunities as Opportunity[];
const options = { threshold: 5, freshness: { at: AT.getTime(), staleAfterMs: 180_000 }, asOf: AT.toISOString() };
const withNet = (item: Opportunity, net_apr: number): Opportunity => ({ ...item, net_apr });

describe("opportunityEvents", () => {
  it("opens what is new, closes what is gone and leaves the rest alone", () => {
    const events = opportunityEvents(columnsOf([a!, b!]), columnsOf([b!, c!]), options);
    expect(events.map((e) => [e.type, e.type === "opportunity.closed" ? e.data.id : (e.data as { opportunity: Opportunity }).opportunity.id])).toEqual([
      ["opportunity.opened", c!.id],
      ["opportunity.closed", a!.id],
    ]);
    const closed = events[1]!;
    expect(closed.data).toEqual({
      id: a!.id,
      symbol: a!.symbol,
      long: { exchange: a!.long.exchange, market: a!.long.market },
      short: { exchange: a!.short.exchange, market: a!.short.market },
      last_apr: a!.apr,
      last_net_apr: a!.net_apr,
    });
    for (const event of events) expect(() => EVENT_DATA_SCHEMAS[event.type].parse(event.data)).not.toThrow();
  });

  it("updates when net APR moves by the threshold or more, either way, and not below it", () => {
    const base = withNet(a!, 20);
    expect(opportunityEvents(columnsOf([base]), columnsOf([withNet(a!, 24.99)]), options)).toEqual([]);
    const up = opportunityEvents(columnsOf([base]), columnsOf([withNet(a!, 25)]), options);
    expect(up).toHaveLength(1);
    expect(up[0]).toMatchObject({ type: "opportunity.updated", data: { previous_net_apr: 20, opportunity: { id: a!.id, net_apr: 25 } } });
    expect(opportunityEvents(columnsOf([base]), columnsOf([withNet(a!, 14.5)]), options)[0]?.type).toBe("opportunity.updated");
    expect(opportunityEvents(columnsOf([base]), columnsOf([withNet(a!, 21)]), { ...options, threshold: 1 })[0]?.type).toBe("opportunity.updated");
  });

  it("serves the item as the API does, legs flagged stale at the publish time", () => {
    const old = { ...a!, long: { ...a!.long, observed_at: new Date(AT.getTime() - 600_000).toISOString() } };
    const [event] = opportunityEvents(columnsOf([]), columnsOf([old]), options);
    expect(event?.type).toBe("opportunity.opened");
    const served = (event!.data as { opportunity: { stale: boolean; long: { stale: boolean }; short: { stale: boolean } } }).opportunity;
    expect([served.stale, served.long.stale, served.short.stale]).toEqual([true, true, false]);
  });

  it("diffs ranked sets (standard ids, never built) as it diffs the same items with their ids", () => {
    const ranked = (at: Date) => rankOpportunities(generateSandboxMarket(at).snapshots).columns;
    const [before, after] = [ranked(AT), ranked(new Date(AT.getTime() + 6 * 3_600_000))];
    expect([before.ids, after.ids]).toEqual([null, null]);
    const events = opportunityEvents(before, after, { ...options, threshold: 1 });
    expect(events.length).toBeGreaterThan(0);
    expect(events).toEqual(opportunityEvents(columnsOf(itemsOf(before)), columnsOf(itemsOf(after)), { ...options, threshold: 1 }));
    // A set dropping a venue's markets closes their pairs, by their ids.
    const dropped = rankOpportunities(generateSandboxMarket(AT).snapshots.filter((s) => s.exchange !== "okx")).columns;
    const closed = opportunityEvents(before, dropped, options).filter((e) => e.type === "opportunity.closed");
    expect(closed.length).toBeGreaterThan(0);
    for (const event of closed) expect((event.data as { id: string }).id).toMatch(/-okx(-|$)/);
  });

  it("gives the same events, closed ones in set order, when the previous set's items come in no particular order", () => {
    const before = rankOpportunities(generateSandboxMarket(AT).snapshots).columns;
    // A venue's markets gone (its pairs closed) and every rate moved (updates and pairs flipping sides).
    const later = generateSandboxMarket(new Date(AT.getTime() + 6 * 3_600_000)).snapshots.filter((s) => s.exchange !== "okx");
    const after = rankOpportunities(later).columns;
    const ordered = opportunityEvents(before, after, { ...options, threshold: 1 });
    expect(ordered.filter((e) => e.type === "opportunity.closed").length).toBeGreaterThan(10);
    const items = itemsOf(before);
    const shuffled = items.map((_, i) => items[(i * 7_919) % items.length]!);
    expect(new Set(shuffled).size).toBe(items.length);
    expect(opportunityEvents(columnsOf(shuffled), after, { ...options, threshold: 1, previousUnordered: true })).toEqual(ordered);
  });

  it("reads the previous set where it lies, as runs of rows of several columns, with the events of the set they make", () => {
    const ranked = (at: Date) => rankOpportunities(generateSandboxMarket(at).snapshots).columns;
    const [before, after] = [ranked(AT), ranked(new Date(AT.getTime() + 6 * 3_600_000))];
    const ordered = opportunityEvents(before, after, { ...options, threshold: 1 });
    expect(ordered.filter((e) => e.type === "opportunity.closed").length).toBeGreaterThan(10);
    // The old set cut into three columns of its own (its items in a new order) and runs of them, in no order.
    const items = itemsOf(before);
    const parts = [0, 1, 2].map((part) => items.filter((_, i) => i % 3 === part));
    const columns = parts.map((part) => columnsOf([...part].reverse()));
    const runs = columns.flatMap((c) => {
      const rows = Uint32Array.from({ length: c.count }, (_, r) => r);
      return [{ columns: c, rows: rows.filter((r) => r % 2 === 1) }, { columns: c, rows: rows.filter((r) => r % 2 === 0) }];
    });
    expect(opportunityEvents(runs.reverse(), after, { ...options, threshold: 1, previousUnordered: true })).toEqual(ordered);
    // All of one columns' rows, said as null.
    expect(opportunityEvents([{ columns: before, rows: null }], after, { ...options, threshold: 1 })).toEqual(ordered);

    // Ranked columns (standard ids, indexed by places rather than ids): half the assets' pairs from
    // a ranking of their markets alone, the rest from the whole set's rows.
    const snapshots = generateSandboxMarket(AT).snapshots;
    const symbols = [...new Set(snapshots.map((s) => s.base))].filter((_, i) => i % 2 === 0);
    const half = rankOpportunities(snapshots.filter((s) => symbols.includes(s.base))).columns;
    expect(half.ids).toBeNull();
    const rest = Uint32Array.from({ length: before.count }, (_, r) => r).filter((r) => !symbols.includes(before.texts[before.symbol[r]!]!));
    const mixed = [{ columns: half, rows: Uint32Array.from({ length: half.count }, (_, r) => half.count - 1 - r) }, { columns: before, rows: rest.filter((r) => r % 2 === 0) }, { columns: before, rows: rest.filter((r) => r % 2 === 1) }];
    expect(opportunityEvents(mixed, after, { ...options, threshold: 1, previousUnordered: true })).toEqual(ordered);
  });

  it("opportunityEventsOf gives exactly the full diff's events of the assets it is told, from their pairs alone, and none of the others", () => {
    const ranked = (at: Date) => rankOpportunities(generateSandboxMarket(at).snapshots).columns;
    const [before, after] = [ranked(AT), ranked(new Date(AT.getTime() + 6 * 3_600_000))];
    const all = opportunityEvents(before, after, { ...options, threshold: 1 });
    const symbolOf = (e: (typeof all)[number]) => (e.type === "opportunity.closed" ? e.data.symbol : (e.data as { opportunity: Opportunity }).opportunity.symbol);
    const moved = [...new Set(all.map(symbolOf))];
    expect(moved.length).toBeGreaterThan(2);
    const bases = new Set(moved.slice(0, 2));
    const some = opportunityEventsOf(PatchedSet.of(before), bases, PatchedSet.of(after).rowsOf(bases), undefined, { ...options, threshold: 1 });
    expect(some.length).toBeGreaterThan(0);
    expect(some).toEqual(all.filter((e) => bases.has(symbolOf(e))));
  });

  it("handles a set of 150,000 items in one linear pass", () => {
    const many = Array.from({ length: 150_000 }, (_, i) => ({ ...a!, id: `opp_${i}` }));
    const moved = many.map((item, i) => (i % 1000 === 0 ? withNet(item, item.net_apr + 10) : item));
    const events = opportunityEvents(columnsOf(many), columnsOf(moved.slice(1)), options);
    expect(events.filter((e) => e.type === "opportunity.updated")).toHaveLength(149);
    expect(events.filter((e) => e.type === "opportunity.closed")).toHaveLength(1);
  });
});

describe("intervalChangeEvents", () => {
  it("carries each change as GET /v1/funding-intervals serves it", () => {
    const row = {
      exchange: "binance",
      market: "BTC/USDT:USDT",
      base: "BTC",
      effectiveAt: new Date("2026-11-20T08:00:00Z"),
      fromHours: 8,
      toHours: 4,
      source: "venue" as const,
      detectedAt: new Date("2026-11-20T08:38:00Z"),
    };
    expect(intervalChangeEvents([row])).toEqual([
      {
        type: "funding_interval.changed",
        data: {
          change: {
            exchange: "binance",
            market: "BTC/USDT:USDT",
            symbol: "BTC",
            effective_at: "2026-11-20T08:00:00.000Z",
            from_hours: 8,
            to_hours: 4,
            source: "venue",
            detected_at: "2026-11-20T08:38:00.000Z",
          },
        },
      },
    ]);
  });
});

describe("venueHealthEvents", () => {
  const success = new Date("2026-11-20T11:59:00Z");
  it("reports ok → stale and stale → ok, a venue seen the first time stale (it never succeeded), and nothing for one unchanged or first seen ok", () => {
    const before = new Map([
      ["binance", { status: "ok" as const, lastSuccessAt: success, error: null }],
      ["okx", { status: "stale" as const, lastSuccessAt: null, error: "timeout" }],
      ["gate", { status: "ok" as const, lastSuccessAt: success, error: null }],
    ]);
    const events = venueHealthEvents(before, [
      { exchange: "binance", status: "stale", lastSuccessAt: success, error: "HTTP 502" },
      { exchange: "okx", status: "ok", lastSuccessAt: AT, error: null },
      { exchange: "gate", status: "ok", lastSuccessAt: AT, error: null },
      { exchange: "bybit", status: "stale", lastSuccessAt: null, error: "timeout" },
      { exchange: "woo", status: "ok", lastSuccessAt: AT, error: null },
    ]);
    expect(events).toEqual([
      { type: "venue.stale", data: { exchange: "binance", status: "stale", last_success_at: success.toISOString(), error: "HTTP 502" } },
      { type: "venue.recovered", data: { exchange: "okx", status: "ok", last_success_at: AT.toISOString(), error: null } },
      { type: "venue.stale", data: { exchange: "bybit", status: "stale", last_success_at: null, error: "timeout" } },
    ]);
  });
});
