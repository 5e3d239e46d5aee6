import { describe, expect, it } from "vitest";
import { filterSummary } from "./filter-summary";

const NONE = { exchange: "", exchanges: [], min_apr: "", symbol: "", sort: "" };

describe("filterSummary", () => {
  it("is empty without filters, and with the default sort", () => {
    expect(filterSummary(NONE)).toBe("");
    expect(filterSummary({ ...NONE, sort: "-apr" })).toBe("");
  });

  it("names each filter applied, in the form's order", () => {
    expect(filterSummary({ exchange: "okx", exchanges: ["okx", "bybit", "binance"], min_apr: "5", symbol: "btc", sort: "-net_apr" })).toBe(
      "okx · both legs on 3 venues · APR ≥ 5% · BTC · sorted by net APR",
    );
    expect(filterSummary({ ...NONE, exchanges: ["gate"], sort: "apr" })).toBe("both legs on gate · sorted by APR ascending");
  });

  it("shows a sort it does not know as the URL has it (the page then explains the refusal)", () => {
    expect(filterSummary({ ...NONE, sort: "volume" })).toBe("sorted by volume");
  });
});
