import type { Exchange, Market } from "ccxt";
import { describe, expect, it } from "vitest";
import { clientConfig, loadMarketsWith, withMarketParams } from "./ccxt-client";
import { loadCcxt } from "./load-ccxt";
import type { VenueAdapter } from "./venue-adapter";
import { VENUE_ADAPTERS } from "./venue-adapters";

describe("clientConfig", () => {
  it("keeps the refresh's settings, turns currencies, the last answer and quoted numbers off and sets options only when given", () => {
    const config = { timeout: 10_000, enableRateLimit: true };
    expect(clientConfig(config)).toEqual({ ...config, enableLastHttpResponse: false, enableLastResponseHeaders: false, quoteJsonNumbers: false, has: { fetchCurrencies: false } });
    // Not even `options: undefined`: a venue that names no options leaves ccxt's to ccxt.
    expect("options" in clientConfig(config)).toBe(false);
    expect(clientConfig(config, { fetchMarkets: { types: ["swap"] } })).toEqual({
      ...config,
      enableLastHttpResponse: false,
      enableLastResponseHeaders: false,
      quoteJsonNumbers: false,
      options: { fetchMarkets: { types: ["swap"] } },
      has: { fetchCurrencies: false },
    });
  });
});

describe("market loading", () => {
  type FakeClient = Exchange & { fetchSwapMarkets: Exchange["fetchMarkets"] };
  // Each list answers its name and the params it was asked with.
  const list = (id: string) => async (params: Record<string, unknown> = {}) => [{ id, params }] as unknown as Market[];
  const client = () => ({ fetchMarkets: list("BTC"), fetchSwapMarkets: list("BTC-SWAP") }) as unknown as FakeClient;

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

describe("every ccxt venue's client", () => {
  // Each adapter is typed by its own exchange class; here any exchange will do (as fetch-venue-snapshot reads them).
  const ccxtAdapters = Object.values(VENUE_ADAPTERS).filter((adapter) => adapter.kind !== "http") as unknown as VenueAdapter<Exchange>[];

  it.each(ccxtAdapters.map((adapter) => [adapter.id, adapter] as const))("%s keeps no last answer and parses answers as they are", async (id, adapter) => {
    const client = adapter.create(await loadCcxt(id), { timeout: 10_000, enableRateLimit: false });
    expect(client.enableLastHttpResponse).toBe(false);
    expect(client.enableLastResponseHeaders).toBe(false);
    // An integer beyond 2^53 beside a rate: by default ccxt would parse the text again with every number quoted.
    expect(client.parseJson('{"id":12345678901234567890,"fundingRate":0.0001}')).toEqual({ id: 12345678901234567000, fundingRate: 0.0001 });
  });
});
