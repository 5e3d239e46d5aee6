/** What ccxt passes to a custom `fetchImplementation` in Node (see Exchange.fetch in ccxt). */
export interface FetchInit {
  method?: string;
  headers?: Record<string, string>;
  body?: string | undefined;
  signal?: AbortSignal;
}

/** The network as ccxt and the HTTP client call it: the global `fetch` live, a replay in tests and the offline sample. */
export type FetchImplementation = (url: string, init: FetchInit) => Promise<Response>;
