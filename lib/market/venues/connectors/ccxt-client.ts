import type { Exchange } from "ccxt";

/**
 * A ccxt client's settings: the refresh's own (fetch implementation, timeout, throttle), currencies
 * never loaded (no snapshot reads them), and, where given, the venue's `options` narrowing what its
 * market loading requests.
 */
export function clientConfig(config: Record<string, unknown>, options?: Record<string, unknown>): Record<string, unknown> {
  return { ...config, ...(options === undefined ? {} : { options }), has: { fetchCurrencies: false } };
}

type LoadMarkets<E extends Exchange> = (exchange: E, params: Record<string, unknown>) => ReturnType<E["fetchMarkets"]>;

/**
 * Replaces the client's market loading with `load`, for venues whose ccxt `fetchMarkets` also loads
 * lists no refresh reads (spot, coin-margined) and has no option to skip them; `load` names the
 * narrower request the venue's connector relies on.
 */
export function loadMarketsWith<E extends Exchange>(exchange: E, load: LoadMarkets<E>): E {
  exchange.fetchMarkets = ((params: Record<string, unknown> = {}) => load(exchange, params)) as E["fetchMarkets"];
  return exchange;
}

/** Sends `fixed` with every market-list request of the client (a parameter the caller passes wins). */
export function withMarketParams<E extends Exchange>(exchange: E, fixed: Record<string, unknown>): E {
  const fetchMarkets = exchange.fetchMarkets.bind(exchange);
  return loadMarketsWith(exchange, (_, params) => fetchMarkets({ ...fixed, ...params }) as ReturnType<E["fetchMarkets"]>);
}
