import { readFileSync } from "node:fs";
import path from "node:path";
import type { MarketSnapshot, VenueId, VenueSnapshotResult } from "@/lib/market/model/types";
import { startWsReplayServer, type WsReplayServer } from "../ws-replay-server";
import { makeSnapshot } from "./make-snapshot";

// What the live-feed integration tests replay: Binance's recorded all-markets mark-price frame and
// round answers listing its markets.

const FIXTURE = path.join(__dirname, "../../fixtures/streams/binance/markPriceUpdate_2021-04-01_cmp.jsonl");

/** The recorded `!markPrice@arr` frame with BTCUSDT and ETHUSDT (E 1617309024002). */
export const BINANCE_ARRAY_FRAME = readFileSync(FIXTURE, "utf8")
  .split("\n")
  .find((line) => line.includes('"!markPrice@arr"') && line.includes('"BTCUSDT"'))!;

/** A round's answer for `exchange`: every market listed, nothing excluded. */
export const okRound = (exchange: VenueId, snapshots: MarketSnapshot[]): VenueSnapshotResult => ({
  status: "ok",
  exchange,
  fetchedAt: Date.now(),
  snapshots,
  excluded: { notLinearPerp: 0, inactive: 0, unlisted: 0, invalid: 0, noFundingRow: 0 },
  warnings: [],
});

/** A Binance market of `base` observed when the frame was recorded, unless `overrides` say otherwise. */
export const binanceMarket = (base: string, overrides: Partial<MarketSnapshot> = {}) =>
  makeSnapshot({ exchange: "binance", base, observedAt: Date.UTC(2021, 3, 1, 20), ...overrides });

/** A loopback server playing `frame` (the recorded one) every `intervalMs`, acknowledging Binance's SUBSCRIBE as Binance does. */
export const startBinanceReplay = (intervalMs: number, frame = BINANCE_ARRAY_FRAME): Promise<WsReplayServer> =>
  startWsReplayServer({
    frames: [frame],
    intervalMs,
    loop: true,
    answer: (frame) => (frame.includes('"SUBSCRIBE"') ? '{"result":null,"id":1}' : undefined),
  });
