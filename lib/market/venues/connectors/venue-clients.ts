import type { Exchange } from "ccxt";
import type { VenueId } from "../../model/types";
import { venueBudgets } from "../venue-budget";
import type { CcxtModule, VenueAdapter } from "./venue-adapter";

// One live client per venue and thread, shared by the ingestion rounds and the quotes' book
// requests: its keep-alive connections and ccxt's request throttle (its weights per endpoint) cover
// this thread's requests, and each request also draws a live token from the venue's budget, which
// the process's threads and its backfill share (venue-budget.ts).
const keptClients = new Map<VenueId, Exchange>();

/** The process's live ccxt client of the adapter's venue, created on first use with ccxt's throttle on. */
export function keptClient(adapter: VenueAdapter<Exchange>, lib: CcxtModule): Exchange {
  let client = keptClients.get(adapter.id);
  if (!client) {
    client = budgeted(adapter.id, adapter.create(lib, { enableRateLimit: true }));
    keptClients.set(adapter.id, client);
  }
  return client;
}

const keptSpotClients = new Map<VenueId, Exchange>();

/**
 * The process's live ccxt client of a venue's spot markets, created by `create` on first use: a
 * client of its own, since the venue's kept one loads only its perpetuals, drawing on the same
 * venue budget as every other request to the venue.
 */
export function keptSpotClient(venue: VenueId, create: () => Exchange): Exchange {
  let client = keptSpotClients.get(venue);
  if (!client) {
    client = budgeted(venue, create());
    keptSpotClients.set(venue, client);
  }
  return client;
}

/**
 * The client with every HTTP request it sends (ccxt's `fetch`, below its throttle and its retries)
 * waiting for a live token of the venue's budget first. ccxt's `fetchImplementation` would do as
 * much, but replacing it takes ccxt off its faster undici request path.
 */
function budgeted(venue: VenueId, client: Exchange): Exchange {
  const send = client.fetch.bind(client);
  client.fetch = async (...args: Parameters<Exchange["fetch"]>) => {
    await venueBudgets().take(venue, "live");
    return send(...args);
  };
  return client;
}
