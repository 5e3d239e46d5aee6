import { describe, expect, it } from "vitest";
import { sandboxMarket } from "./sandbox-market";

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

  it("reports its venues, one of them always stale to test against, and a published round", async () => {
    const status = await market.status();
    expect(status.venues.some((v) => v.status === "stale" && v.last_error?.startsWith("sandbox:"))).toBe(true);
    expect(status.last_round).toMatchObject({ status: "published", opportunities: (await market.opportunities()).items.length });
  });
});
