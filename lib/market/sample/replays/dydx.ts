/*
 * dYdX v4 indexer replay. Everything here is REAL: `GET /v4/perpetualMarkets`, recorded on mainnet
 * by nautilus_trader (`nautechsystems/nautilus_trader`
 * `crates/adapters/dydx/test_data/http_get_perpetual_markets.json` @
 * 97dd51faf8c1e5fcd71c9f033d2f4ad887254657; lib/market/fixtures/dydx/SOURCES.md): BTC-USD, ETH-USD
 * and SOL-USD (a negative rate), served unaltered. It is the venue's market list and its funding
 * payload at once, so a refresh makes this one request (and a client loading its markets one more).
 */
import type { ReplayRoute } from "../../replay-fetch";
import { fixtureText } from "../read-fixture";

/**
 * When the recording is of: its capture envelope's `isoTimestamp`, 2025-12-08T16:12:00Z (the body
 * itself has no time; the BTC settlements recorded with it end at 16:00Z).
 */
export const DYDX_RECORDED_AT = Date.UTC(2025, 11, 8, 16, 12);

export function dydxRoutes(): ReplayRoute[] {
  return [{ path: "/v4/perpetualMarkets", reply: { body: fixtureText("dydx/perpetualMarkets_2025-12-08_sample.json") } }];
}
