import { describe, expect, it } from "vitest";
import { indexByMarket } from "./market-index";

describe("indexByMarket", () => {
  const rows = [
    { exchange: "okx", market: "BTC/USDT:USDT", at: 1 },
    { exchange: "bybit", market: "BTC/USDT:USDT", at: 2 },
    { exchange: "okx", market: "ETH/USDT:USDT", at: 3 },
    { exchange: "okx", market: "BTC/USDT:USDT", at: 4 },
  ];
  const at = indexByMarket(rows, (row) => row.at);

  it("finds each row's value by venue and market, the later row of a market replacing the earlier", () => {
    expect(at("okx", "BTC/USDT:USDT")).toBe(4);
    expect(at("bybit", "BTC/USDT:USDT")).toBe(2);
    expect(at("okx", "ETH/USDT:USDT")).toBe(3);
  });

  it("finds nothing for a market of another venue, or a venue it never saw", () => {
    expect(at("bybit", "ETH/USDT:USDT")).toBeUndefined();
    expect(at("gate", "BTC/USDT:USDT")).toBeUndefined();
  });

  it("keeps venue and market apart where a joined key would not", () => {
    const joined = indexByMarket([{ exchange: "a", market: "b c" }, { exchange: "a b", market: "c" }], (row) => row.exchange);
    expect(joined("a", "b c")).toBe("a");
    expect(joined("a b", "c")).toBe("a b");
  });
});
