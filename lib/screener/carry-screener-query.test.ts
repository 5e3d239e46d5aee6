import { describe, expect, it } from "vitest";
import { carryHref, parseCarryScreenerQuery } from "./carry-screener-query";

describe("parseCarryScreenerQuery", () => {
  it("applies the carry API's defaults", () => {
    expect(parseCarryScreenerQuery({})).toEqual({ ok: true, filter: { limit: 50, offset: 0, sort: "-apr" } });
  });

  it("reads the type and the shared filters as the API does, dropping the empty fields a form submits", () => {
    expect(parseCarryScreenerQuery({ type: "perp_spot", symbol: "eth", exchange: "okx", min_apr: "5", sort: "net_apr", limit: "20", offset: "" })).toEqual({
      ok: true,
      filter: { type: "perp_spot", symbol: "ETH", exchange: "okx", min_apr: 5, sort: "net_apr", limit: 20, offset: 0 },
    });
    expect(parseCarryScreenerQuery({ exchanges: ["okx", "binance"] })).toMatchObject({ ok: true, filter: { exchanges: ["binance", "okx"] } });
  });

  it("refuses what the API refuses, field by field, a perp pair's type and sort among them", () => {
    expect(parseCarryScreenerQuery({ type: "perp_perp", sort: "open_interest", limit: "500" })).toEqual({
      ok: false,
      problems: [
        { field: "limit", message: "Must be at most 100" },
        { field: "type", message: expect.stringContaining("Must be one of: spot_perp, perp_spot") },
        { field: "sort", message: "Must be one of: apr, -apr, net_apr, -net_apr" },
      ],
    });
    expect(parseCarryScreenerQuery({ colour: "blue" })).toEqual({ ok: false, problems: [{ field: "colour", message: "Unknown query parameter" }] });
  });
});

describe("carryHref", () => {
  const defaults = { limit: 50, offset: 0, sort: "-apr" } as const;

  it("is the bare tab for the defaults and leaves defaults out", () => {
    expect(carryHref(defaults)).toBe("/carry");
    expect(carryHref(defaults, { offset: 0, sort: "-apr" })).toBe("/carry");
  });

  it("keeps the type and the filters, and applies the change", () => {
    const filter = { ...defaults, type: "spot_perp" as const, symbol: "BTC", exchanges: ["binance", "okx"] };
    expect(carryHref(filter, { sort: "net_apr", offset: 50 })).toBe("/carry?type=spot_perp&exchanges=binance%2Cokx&symbol=BTC&sort=net_apr&offset=50");
  });

  it("reads back as the filter it was built from", () => {
    const filter = { limit: 20, offset: 40, sort: "-net_apr" as const, type: "perp_spot" as const, min_apr: 2.5, exchange: "bybit" };
    const href = carryHref(filter);
    const params = Object.fromEntries(new URL(href, "http://x").searchParams);
    expect(parseCarryScreenerQuery(params)).toEqual({ ok: true, filter });
  });
});
