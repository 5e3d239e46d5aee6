// The REST side of the freshness bench's one venue state (freshness-venues.ts): a replayed round's
// observations of the markets the stream player plays take the fields the player's stream has told
// of them (freshness-streams.ts `streamedState`), so a round states what the stream states, as a
// venue's REST and WebSocket do, instead of reverting every streamed change to the recording.
import type { FundingObservation } from "@/lib/market/venues/connectors/build-snapshot";
import type { CollectContext, VenueCollection } from "@/lib/market/venues/connectors/venue-adapter";
import { VENUE_ADAPTERS } from "@/lib/market/venues/connectors/venue-adapters";
import type { StreamFields } from "@/lib/market/venues/streams/stream-protocol";
import { STREAM_PROTOCOLS } from "@/lib/market/venues/streams/stream-protocols";
import type { MarketSnapshot, VenueId } from "@/lib/market/model/types";

/** The observation fields a stream states (StreamFields' keys, all of them FundingObservation's too). */
const FIELDS = ["fundingRate", "predictedFundingRate", "nextFundingAt", "markPrice", "indexPrice"] as const satisfies readonly (keyof StreamFields & keyof FundingObservation)[];

/** A listed market as the round and the stream name it. */
export interface StreamedMarket {
  symbol: string;
  venueMarketId: string;
  venueBase: string;
}

/**
 * Each listed market's stream name by its ccxt symbol (the observations' key): the protocol's
 * `streamKey` where it has one (Hyperliquid's coin), else the venue's market id, as the live feeds
 * and the player name it.
 */
export function streamNames(markets: Iterable<StreamedMarket>, streamKey?: (market: Pick<MarketSnapshot, "venueMarketId" | "venueBase">) => string): Map<string, string> {
  const names = new Map<string, string>();
  for (const market of markets) names.set(market.symbol, streamKey?.(market) ?? market.venueMarketId);
  return names;
}

/**
 * The observations with the stream's fields of each market it tells of (`null`, the venue saying
 * "none", as an absent REST field); the fields it never states, and markets it does not play, as the
 * recorded answer has them.
 */
export function applyStreamState(observations: readonly FundingObservation[], names: ReadonlyMap<string, string>, state: Readonly<Record<string, StreamFields>>): FundingObservation[] {
  return observations.map((observation) => {
    const name = names.get(observation.symbol);
    const fields = name === undefined ? undefined : state[name];
    if (!fields) return observation;
    const applied = { ...observation };
    for (const field of FIELDS) if (fields[field] !== undefined) applied[field] = fields[field] ?? undefined;
    return applied;
  });
}

/** What the stream has told of each market of a venue (by stream name), or undefined to keep the recorded answer. */
export type StreamStateSource = (venue: VenueId) => Promise<Readonly<Record<string, StreamFields>> | undefined>;

type ListedMarket = { id?: string; symbol: string; base: string };
/** Both adapter kinds as the wrapping sees them (a ccxt client or an HttpClient, and their listed markets). */
type WrappedAdapter = {
  venueBase?: (market: ListedMarket) => string;
  collect: (client: unknown, context: CollectContext<ListedMarket>) => Promise<VenueCollection>;
};

/**
 * Wraps `venue`'s adapter's `collect` (a venue with a stream protocol): its state is asked once per
 * collect, beside the recorded answer, and applied to the parsed observations. Answers the unwrap.
 */
export function wrapCollect(venue: VenueId, stateOf: StreamStateSource): () => void {
  const protocol = STREAM_PROTOCOLS[venue];
  const adapter = VENUE_ADAPTERS[venue] as unknown as WrappedAdapter;
  const collect = adapter.collect;
  if (!protocol) return () => undefined;
  adapter.collect = async (client, context) => {
    const [collection, state] = await Promise.all([collect.call(adapter, client, context), stateOf(venue)]);
    if (!state) return collection;
    // Each market as the snapshot names it (build-snapshot.ts: the adapter's venue base where ccxt's differs).
    const markets = [...context.marketsById.values()].map((m) => ({ symbol: m.symbol, venueMarketId: m.id ?? "", venueBase: adapter.venueBase?.(m) ?? m.base }));
    return { ...collection, observations: applyStreamState(collection.observations, streamNames(markets, protocol.streamKey), state) };
  };
  return () => {
    adapter.collect = collect;
  };
}
