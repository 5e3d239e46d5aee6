import { describe, expect, it } from "vitest";
import { parseQuery } from "@/lib/query-params";
import { appErrorFrom } from "@/tests/support/app-error";
import { makeSnapshot } from "@/tests/support/market/make-snapshot";
import { dailyBorrow, makeSpot } from "@/tests/support/market/make-spot";
import { carryItemsOf } from "./carry-columns";
import { rankCarryColumns } from "./carry-pairs";
import { carryOpportunitiesQuery, CarrySnapshot, queryCarry, type CarryFilter } from "./carry-query";

// BTC and ETH perpetuals on Binance (0.01 %/8 h), Bybit (0.03 %/8 h) and OKX (−0.02 %/8 h); spot on
// Binance (lending both) and OKX. Fees differ per venue, so `net_apr` orders otherwise than `apr`.
const perps = ["BTC", "ETH"].flatMap((base) => [
  makeSnapshot({ exchange: "binance", base, fundingRate: 0.0001, takerFee: 0.0002 }),
  makeSnapshot({ exchange: "bybit", base, fundingRate: 0.0003, takerFee: 0.002 }),
  makeSnapshot({ exchange: "okx", base, fundingRate: -0.0002, takerFee: 0.0005 }),
]);
const spots = ["BTC", "ETH"].flatMap((base) => [
  makeSpot({ exchange: "binance", base, market: `${base}/USDT`, borrow: dailyBorrow(base) }),
  makeSpot({ exchange: "okx", base, market: `${base}/USDT` }),
]);
const columns = rankCarryColumns(perps, spots);
const items = carryItemsOf(columns);
const snapshot = new CarrySnapshot(columns, "2026-09-27T13:30:00.000Z", false);

function query(params: Record<string, string>) {
  return queryCarry(snapshot, parseQuery(new URL(`http://x/?${new URLSearchParams(params)}`), carryOpportunitiesQuery) as CarryFilter);
}

const ids = (page: { items: { id: string }[] }) => page.items.map((item) => item.id);

describe("queryCarry", () => {
  it("lists the set in its order by default: apr descending, ties by id", () => {
    // 2 spot venues × 3 perps × 2 assets spot_perp, and Binance's lent spot × 3 perps × 2 perp_spot.
    expect(items).toHaveLength(18);
    const page = query({ limit: "100" });
    expect(ids(page)).toEqual(items.map((item) => item.id));
    for (let i = 1; i < page.items.length; i++) {
      const [before, after] = [page.items[i - 1]!, page.items[i]!];
      expect(before.apr > after.apr || (before.apr === after.apr && before.id < after.id), `${before.id} before ${after.id}`).toBe(true);
    }
    expect(page.items[0]!.id).toBe("BTC-spot_perp-binance-bybit");
  });

  it("sorts by apr and net_apr either way, ties broken by id ascending", () => {
    for (const sort of ["apr", "net_apr", "-net_apr"] as const) {
      const field = sort.replace("-", "") as "apr" | "net_apr";
      const page = query({ sort, limit: "100" });
      expect(page.total).toBe(18);
      for (let i = 1; i < page.items.length; i++) {
        const [a, b] = [page.items[i - 1]!, page.items[i]!];
        const inOrder = sort.startsWith("-") ? a[field] > b[field] : a[field] < b[field];
        expect(inOrder || (a[field] === b[field] && a.id < b.id), `${sort}: ${a.id} before ${b.id}`).toBe(true);
      }
    }
    // Bybit's 0.2 % perpetual fee puts its items below Binance's by net APR, though above by APR.
    expect(query({ sort: "-net_apr", limit: "1" }).items[0]!.perp.exchange).not.toBe("bybit");
  });

  it("filters by type, symbol, either leg's exchange, both legs' exchanges and minimum apr", () => {
    expect(query({ type: "perp_spot", limit: "100" }).items.every((item) => item.type === "perp_spot" && item.spot.exchange === "binance")).toBe(true);
    expect(query({ type: "perp_spot" }).total).toBe(6);
    expect(query({ symbol: "eth" }).items.every((item) => item.symbol === "ETH")).toBe(true);
    expect(query({ symbol: "eth" }).total).toBe(9);
    // Either leg: OKX spot against any perp (6), or OKX's perp against Binance's spot (spot_perp and perp_spot, × 2 assets: 4).
    const okx = query({ exchange: "okx", limit: "100" });
    expect(okx.total).toBe(10);
    expect(okx.items.every((item) => item.spot.exchange === "okx" || item.perp.exchange === "okx")).toBe(true);
    // Both legs among Binance and OKX: no Bybit perpetual.
    const both = query({ exchanges: "okx,binance", limit: "100" });
    expect(both.total).toBe(12);
    expect(both.items.some((item) => item.perp.exchange === "bybit")).toBe(false);
    const rich = query({ min_apr: "30" });
    expect(rich.items.every((item) => item.apr >= 30)).toBe(true);
    expect(rich.total).toBe(items.filter((item) => item.apr >= 30).length);
    expect(rich.total).toBeGreaterThan(0);
  });

  it("pages with total and has_more as /v1/opportunities does", () => {
    const first = query({ limit: "5" });
    expect(first).toMatchObject({ total: 18, limit: 5, offset: 0, has_more: true });
    const last = query({ limit: "5", offset: "15" });
    expect(last).toMatchObject({ total: 18, limit: 5, offset: 15, has_more: false });
    expect(last.items).toHaveLength(3);
    expect([...ids(first), ...ids(query({ limit: "5", offset: "5" })), ...ids(query({ limit: "5", offset: "10" })), ...ids(last)]).toEqual(ids(query({ limit: "100" })));
    expect(query({ offset: "40" })).toMatchObject({ items: [], total: 18, has_more: false });
  });

  it("finds an item by id, and none for an id not in the set", () => {
    expect(snapshot.byId("ETH-perp_spot-okx-binance")).toMatchObject({ symbol: "ETH", type: "perp_spot", spot: { exchange: "binance" }, perp: { exchange: "okx" } });
    expect(snapshot.byId("ETH-perp_spot-okx-okx")).toBeUndefined();
  });

  it("refuses a perp pair's type and an unknown sort with the values it accepts", async () => {
    const type = await appErrorFrom(Promise.resolve().then(() => query({ type: "perp_perp" })), "VALIDATION_ERROR");
    expect(JSON.stringify(type.extra)).toMatch(/spot_perp, perp_spot \(perpetual pairs are listed by \/v1\/opportunities\)/);
    const sort = await appErrorFrom(Promise.resolve().then(() => query({ sort: "open_interest" })), "VALIDATION_ERROR");
    expect(JSON.stringify(sort.extra)).toContain("apr, -apr, net_apr, -net_apr");
  });

  it("is empty and of no moment before a set is published", () => {
    const empty = CarrySnapshot.empty();
    expect(empty.asOf).toBeNull();
    expect(queryCarry(empty, { limit: 50, offset: 0, sort: "-apr" })).toEqual({ items: [], total: 0, limit: 50, offset: 0, has_more: false });
  });
});
