import type { Exchange } from "ccxt";
import type { VenueId } from "../types";
import { bodyText, responseText } from "./body-text";
import type { CcxtModule, FetchImplementation, VenueAdapter } from "./venue-adapter";

/**
 * A new ccxt client of the adapter's venue whose answers are decoded by bodyText: through ccxt's
 * own network path (`undiciBody`, asked for the bytes) or a custom `fetchImplementation` (tests and
 * replays, whose Response's `text()` it replaces), so both decode alike.
 */
export function createClient(adapter: VenueAdapter<Exchange>, lib: CcxtModule, config: { fetchImplementation?: FetchImplementation; [key: string]: unknown }): Exchange {
  const { fetchImplementation } = config;
  const client = adapter.create(lib, fetchImplementation ? { ...config, fetchImplementation: withBodyText(fetchImplementation) } : config);
  const undiciBody = client.undiciBody.bind(client);
  client.undiciBody = async (res: unknown, binary = false) => {
    const bytes = (await undiciBody(res, true)) as ArrayBuffer | Uint8Array;
    return binary ? bytes : bodyText(bytes);
  };
  return client;
}

function withBodyText(send: FetchImplementation): FetchImplementation {
  return async (url, init) => {
    const response = await send(url, init);
    response.text = () => responseText(response);
    return response;
  };
}

// One live client per venue and process, shared by the ingestion rounds and the quotes' book
// requests: its keep-alive connections and ccxt's request throttle (its token bucket of the
// venue's rate limit) then cover every request this process makes to the venue.
const keptClients = new Map<VenueId, Exchange>();

/** The process's live ccxt client of the adapter's venue, created on first use with ccxt's throttle on. */
export function keptClient(adapter: VenueAdapter<Exchange>, lib: CcxtModule): Exchange {
  let client = keptClients.get(adapter.id);
  if (!client) {
    client = createClient(adapter, lib, { enableRateLimit: true });
    keptClients.set(adapter.id, client);
  }
  return client;
}
