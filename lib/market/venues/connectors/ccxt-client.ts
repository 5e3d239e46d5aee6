import type { Exchange } from "ccxt";

/**
 * What ccxt keeps of each answer unless told not to: its text and headers, until the client's
 * next request. Nothing here reads them, and a kept client's last answer is its venue's whole
 * funding or market list (megabytes at some venues), held between refreshes in the old generation
 * the collector marks.
 */
export const NO_LAST_RESPONSE = { enableLastHttpResponse: false, enableLastResponseHeaders: false } as const;

/**
 * Answers parsed as they are. By default ccxt walks every parsed answer for an integer beyond 2^53
 * and, finding one, parses the text again with every number quoted: the walk alone took ~8 ms of a
 * benchmark round's thread (bench:market --cpu-prof). No field a snapshot reads is such an integer,
 * and the readers take a number and its quoted text alike.
 */
export const PLAIN_JSON = { quoteJsonNumbers: false } as const;

/**
 * A ccxt client's settings: the refresh's own (fetch implementation, timeout, throttle), currencies
 * never loaded (no snapshot reads them), no last answer kept (NO_LAST_RESPONSE), answers parsed as
 * they are (PLAIN_JSON), and, where given, the venue's `options` narrowing what its market loading
 * requests.
 */
export function clientConfig(config: Record<string, unknown>, options?: Record<string, unknown>): Record<string, unknown> {
  return { ...config, ...NO_LAST_RESPONSE, ...PLAIN_JSON, ...(options === undefined ? {} : { options }), has: { fetchCurrencies: false } };
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
