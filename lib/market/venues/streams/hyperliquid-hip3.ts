import { HIP3_VENUE_IDS, type Hip3VenueId } from "../../model/hip3-venues";
import { HYPERLIQUID_IP_SUBSCRIPTIONS, HYPERLIQUID_MAX_SUBSCRIPTIONS, hyperliquidStream, hyperliquidSockets, readHyperliquidMessage } from "./hyperliquid";
import { decodeMessage } from "./stream-frames";
import type { StreamEvent, VenueStreamProtocol } from "./stream-protocol";

/**
 * Coins a HIP-3 dex may subscribe: its share of the 1000 an IP may hold once the first dex has its
 * 300 (hyperliquid.ts). The largest dex of the May 2026 recording lists 80 coins (64 trading).
 */
export const HIP3_MAX_SUBSCRIPTIONS = Math.floor((HYPERLIQUID_IP_SUBSCRIPTIONS - HYPERLIQUID_MAX_SUBSCRIPTIONS) / HIP3_VENUE_IDS.length);

/**
 * A HIP-3 dex's stream: Hyperliquid's per-coin `activeAssetCtx` on the same socket URL, as the first
 * dex's protocol reads it (a HIP-3 coin keeps its prefix, `xyz:SP500`, 0.99 frames a second when
 * probed), one socket a dex: with the first dex's one to four, eight to eleven of the ten connections
 * an IP may hold only past 750 first-dex coins. The market's `venueMarketId` is the coin already
 * (`xyz:TSLA`), so no `streamKey`. As the connector does, the context's `funding` is both the rate
 * and the forecast (`predictedFundings` covers the first dex only).
 *
 * The all-dex `allDexsAssetCtxs` is not used: it pushes every 14 s or so and its contexts carry no
 * coin, only each dex's universe position.
 */
export function hyperliquidHip3Stream(venue: Hip3VenueId): VenueStreamProtocol {
  return {
    venue,
    sockets: (coins) => hyperliquidSockets(coins, HIP3_MAX_SUBSCRIPTIONS),
    keepalive: hyperliquidStream.keepalive,
    stallAfterMs: hyperliquidStream.stallAfterMs,
    decode: (frame) => decodeMessage(frame, (message, text) => withForecast(readHyperliquidMessage(message, text))),
  };
}

/** Each update's rate also as its predicted rate, the connector's rule for a HIP-3 context. */
function withForecast(events: StreamEvent[]): StreamEvent[] {
  return events.map((event) =>
    event.kind !== "updates"
      ? event
      : {
          kind: "updates",
          updates: event.updates.map((update) =>
            update.fields.fundingRate === undefined ? update : { ...update, fields: { ...update.fields, predictedFundingRate: update.fields.fundingRate } },
          ),
        },
  );
}
