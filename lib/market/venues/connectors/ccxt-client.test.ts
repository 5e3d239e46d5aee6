import type { Exchange } from "ccxt";
import { describe, expect, it, vi } from "vitest";
import { clientConfig, loadMarketsWith, withMarketParams } from "./ccxt-client";

describe("clientConfig", () => {
  it("keeps the refresh's settings, turns currencies off and sets options only when given", () => {
    const config = { timeout: 10_000, enableRateLimit: true };
    expect(clientConfig(config)).toEqual({ ...config, has: { fetchCurrencies: false } });
    // Not even `options: undefined`: a venue that names no options leaves ccxt's to ccxt.
    expect("options" in clientConfig(config)).toBe(false);
    expect(clientConfig(config, { fetchMarkets: { types: ["swap"] } })).toEqual({
      ...config,
      options: { fetchMarkets: { types: ["swap"] } },
      has: { fetchCurrencies: false },
    });
  });
});

describe("market loading", () => {
  const client = () => {
    const fetchMarkets = vi.fn(async (params: Record<string, unknown> = {}) => [{ id: "BTC", params }]);
    const fetchSwapMarkets = vi.fn(async (params: Record<string, unknown> = {}) => [{ id: "BTC-SWAP", params }]);
    return { fetchMarkets, fetchSwapMarkets } as unknown as Exchange & { fetchSwapMarkets: typeof fetchSwapMarkets };
  };

  it("loadMarketsWith routes fetchMarkets to the venue's narrower loader, with the caller's params", async () => {
    const exchange = loadMarketsWith(client(), (e, params) => e.fetchSwapMarkets(params));
    await expect(exchange.fetchMarkets({ a: 1 })).resolves.toEqual([{ id: "BTC-SWAP", params: { a: 1 } }]);
    await expect(exchange.fetchMarkets()).resolves.toEqual([{ id: "BTC-SWAP", params: {} }]);
  });

  it("withMarketParams sends its parameters with every market-list request, the caller's winning", async () => {
    const exchange = withMarketParams(client(), { marketType: "PERP" });
    await expect(exchange.fetchMarkets()).resolves.toEqual([{ id: "BTC", params: { marketType: "PERP" } }]);
    await expect(exchange.fetchMarkets({ marketType: "SPOT", x: 1 })).resolves.toEqual([
      { id: "BTC", params: { marketType: "SPOT", x: 1 } },
    ]);
  });
});
