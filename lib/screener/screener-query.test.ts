import { describe, expect, it } from "vitest";
import { opportunityHref, parseScreenerQuery, screenerHref, toggledSort } from "./screener-query";

describe("parseScreenerQuery", () => {
  it("applies the API's defaults", () => {
    expect(parseScreenerQuery({})).toEqual({ ok: true, filter: { limit: 50, offset: 0, sort: "-apr" } });
  });

  it("reads filters as the API does, dropping the empty fields a form submits", () => {
    const parsed = parseScreenerQuery({ exchange: "okx", min_apr: "12.5", symbol: "btc", sort: "net_apr", offset: "50", limit: "" });
    expect(parsed).toEqual({
      ok: true,
      filter: { exchange: "okx", min_apr: 12.5, symbol: "BTC", sort: "net_apr", offset: 50, limit: 50 },
    });
  });

  it("reads the venues as one comma list or as one value per ticked box, sorted and without repeats", () => {
    const expected = { ok: true, filter: { exchanges: ["hyperliquid", "okx"], limit: 50, offset: 0, sort: "-apr" } };
    expect(parseScreenerQuery({ exchanges: "okx,hyperliquid,okx" })).toEqual(expected);
    expect(parseScreenerQuery({ exchanges: ["okx", "hyperliquid"] })).toEqual(expected);
    expect(parseScreenerQuery({ exchanges: ["okx", "ftx"] })).toEqual({
      ok: false,
      problems: [{ field: "exchanges", message: expect.stringContaining("Must be exchanges separated by commas, each one of: binance") }],
    });
    expect(screenerHref({ limit: 50, offset: 0, sort: "-apr", exchanges: ["hyperliquid", "okx"] })).toBe("/opportunities?exchanges=hyperliquid%2Cokx");
  });

  it("refuses what the API refuses, field by field", () => {
    expect(parseScreenerQuery({ exchange: "ftx", min_apr: "ten" })).toEqual({
      ok: false,
      problems: [
        { field: "exchange", message: expect.stringContaining("Must be one of: binance") },
        { field: "min_apr", message: expect.stringMatching(/^Must be a number: /) },
      ],
    });
    expect(parseScreenerQuery({ limit: "101" })).toEqual({ ok: false, problems: [{ field: "limit", message: "Must be at most 100" }] });
    expect(parseScreenerQuery({ colour: "blue" })).toEqual({ ok: false, problems: [{ field: "colour", message: "Unknown query parameter" }] });
    expect(parseScreenerQuery({ sort: ["apr", "-apr"] })).toEqual({
      ok: false,
      problems: [{ field: "sort", message: "Parameter given more than once" }],
    });
  });
});

describe("screenerHref", () => {
  const filter = { limit: 50, offset: 0, sort: "-apr" } as const;

  it("leaves defaults out, so the plain screener is /opportunities", () => {
    expect(screenerHref(filter)).toBe("/opportunities");
  });

  it("keeps the filters and applies the change", () => {
    expect(screenerHref({ ...filter, exchange: "bybit", symbol: "ETH", min_apr: 5 }, { offset: 50, sort: "apr" })).toBe(
      "/opportunities?exchange=bybit&min_apr=5&symbol=ETH&sort=apr&offset=50",
    );
    expect(screenerHref({ ...filter, limit: 20, offset: 40 }, { offset: 20 })).toBe("/opportunities?limit=20&offset=20");
  });

  it("round-trips through parseScreenerQuery", () => {
    const original = { limit: 25, offset: 75, sort: "open_interest", exchange: "gate", min_apr: -1.5, symbol: "SOL" } as const;
    const params = Object.fromEntries(new URL(screenerHref(original), "http://x").searchParams);
    expect(parseScreenerQuery(params)).toEqual({ ok: true, filter: original });
  });
});

describe("toggledSort", () => {
  it("sorts descending first and ascending on a second click", () => {
    expect(toggledSort("-apr", "net_apr")).toBe("-net_apr");
    expect(toggledSort("-net_apr", "net_apr")).toBe("net_apr");
    expect(toggledSort("net_apr", "net_apr")).toBe("-net_apr");
  });
});

describe("opportunityHref", () => {
  it("encodes the id and carries a size only when one is set", () => {
    expect(opportunityHref("BTC-binance-bybit")).toBe("/opportunities/BTC-binance-bybit");
    expect(opportunityHref("1000PEPE/x-a-b", null)).toBe("/opportunities/1000PEPE%2Fx-a-b");
    expect(opportunityHref("BTC-binance-bybit", 25000)).toBe("/opportunities/BTC-binance-bybit?size=25000");
    expect(opportunityHref("BTC-binance-bybit", 0)).toBe("/opportunities/BTC-binance-bybit");
  });
});
