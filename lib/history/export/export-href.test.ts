import { describe, expect, it } from "vitest";
import { exportHref, MAX_EXPORT_SYMBOLS } from "./export-href";

describe("exportHref", () => {
  it("names the selection's exchanges and assets once each, sorted, with the range and the format", () => {
    const href = exportHref({ exchanges: ["okx", "binance", "okx"], symbols: ["ETH", "BTC"], from: new Date("2026-11-01T00:00:00Z"), to: "2026-11-08T00:00:00.000Z" }, "parquet");
    expect(href).toBe("/api/exports/funding-rates?exchanges=binance,okx&symbols=BTC,ETH&from=2026-11-01T00:00:00.000Z&to=2026-11-08T00:00:00.000Z&format=parquet");
  });

  it("offers no link for a selection no export takes: no asset, or more than one export names", () => {
    const range = { from: "2026-11-01T00:00:00Z", to: "2026-11-02T00:00:00Z" };
    expect(exportHref({ exchanges: ["binance"], symbols: [], ...range }, "csv")).toBeNull();
    const many = Array.from({ length: MAX_EXPORT_SYMBOLS + 1 }, (_, i) => `A${i}`);
    expect(exportHref({ exchanges: ["binance"], symbols: many, ...range }, "csv")).toBeNull();
    expect(exportHref({ exchanges: ["binance"], symbols: many.slice(1), ...range }, "csv")).not.toBeNull();
  });
});
