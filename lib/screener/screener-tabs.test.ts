import { describe, expect, it } from "vitest";
import { screenerTabs } from "./screener-tabs";

describe("screenerTabs", () => {
  it("names both tabs, the page shown marked current", () => {
    expect(screenerTabs("pairs", {})).toEqual([
      { tab: "pairs", label: "Perp pairs", href: "/opportunities", current: true },
      { tab: "carry", label: "Spot–perp carry", href: "/carry", current: false },
    ]);
    expect(screenerTabs("carry", {}).map((tab) => tab.current)).toEqual([false, true]);
  });

  it("keeps the filters both tabs share, as the URL has them, and leaves the rest behind", () => {
    const tabs = screenerTabs("pairs", { symbol: "BTC", exchange: "okx", exchanges: "binance,okx", min_apr: "5", limit: "20", offset: "40", sort: "net_apr" });
    expect(tabs[1]!.href).toBe("/carry?symbol=BTC&exchange=okx&exchanges=binance,okx&min_apr=5&limit=20&sort=net_apr");
    // A sort the carry tab has not (open interest), the carry type and the page go back to the defaults.
    expect(screenerTabs("pairs", { sort: "-open_interest", offset: "50" })[1]!.href).toBe("/carry");
    expect(screenerTabs("carry", { type: "perp_spot", symbol: "ETH", min_apr: "" })[0]!.href).toBe("/opportunities?symbol=ETH");
  });

  it("passes the venue boxes' repeated values on, and a refused value too, for the other tab to refuse", () => {
    expect(screenerTabs("pairs", { exchanges: ["binance", "okx"], min_apr: "ten" })[1]!.href).toBe("/carry?exchanges=binance&exchanges=okx&min_apr=ten");
  });
});
