/** What ccxt passes to a custom `fetchImplementation` in Node (see Exchange.fetch in ccxt). */
export interface FetchInit {
  method?: string;
  headers?: Record<string, string>;
  body?: string | undefined;
  signal?: AbortSignal;
}

/** The network as ccxt and the HTTP client call it: the global `fetch` live, a replay in tests and the offline sample. */
export type FetchImplementation = (url: string, init: FetchInit) => Promise<Response>;

/**
 * `send` with each request first waiting for a live token of `venue`'s budget: how a replayed
 * refresh (tests, the benchmark) spends a budget as the live clients spend the process's.
 */
export function budgetedFetch(send: FetchImplementation, take: (signal: AbortSignal | undefined) => Promise<void>): FetchImplementation {
  return async (url, init) => {
    await take(init.signal);
    return send(url, init);
  };
}
