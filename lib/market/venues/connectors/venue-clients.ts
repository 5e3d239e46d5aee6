import type { Exchange } from "ccxt";
import type { VenueId } from "../../model/types";
import type { CcxtModule, VenueAdapter } from "./venue-adapter";

// One live client per venue and process, shared by the ingestion rounds and the quotes' book
// requests: its keep-alive connections and ccxt's request throttle (its token bucket of the
// venue's rate limit) then cover every request this process makes to the venue.
const keptClients = new Map<VenueId, Exchange>();

/** The process's live ccxt client of the adapter's venue, created on first use with ccxt's throttle on. */
export function keptClient(adapter: VenueAdapter<Exchange>, lib: CcxtModule): Exchange {
  let client = keptClients.get(adapter.id);
  if (!client) {
    client = adapter.create(lib, { enableRateLimit: true });
    keptClients.set(adapter.id, client);
  }
  return client;
}
