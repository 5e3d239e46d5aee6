import { asRecord, clip, decodeMessage, errorEvent, type JsonRecord, unexpectedFrame } from "./stream-frames";
import type { StreamEvent, StreamFields, VenueStreamProtocol } from "./stream-protocol";

/**
 * Paradex serves public channel payloads only as Simple Binary Encoding frames: the schema is
 * negotiated in the URL, and a schema it does not serve is refused at connect (HTTP 400), never
 * answered in JSON. Schema 1 version 1 is the one every environment serves (paradex-py's
 * `paradex_1_0.xml`; version 2 is declared there but not negotiable yet).
 */
export const PARADEX_SBE_SCHEMA_ID = 1;
export const PARADEX_SBE_SCHEMA_VERSION = 1;
export const PARADEX_STREAM_URL = `wss://ws.api.prod.paradex.trade/v1?sbeSchemaId=${PARADEX_SBE_SCHEMA_ID}&sbeSchemaVersion=${PARADEX_SBE_SCHEMA_VERSION}`;

/** Every market's summary on one channel (the official SDK's default `markets_summary` subscription). */
export const PARADEX_SUMMARY_CHANNEL = "markets_summary.ALL";

/** The SBE message header: blockLength, templateId, schemaId, version, each a little-endian uint16. */
export const SBE_HEADER_BYTES = 8;

/** The schema's template ids (`<sbe:message id=…>`); only MarketSummaryEvent is subscribed. */
export const PARADEX_TEMPLATES = {
  1: "TradeEvent",
  2: "BboEvent",
  3: "BookEvent",
  4: "MarketSummaryEvent",
  5: "FundingDataEvent",
  6: "FundingRateComparisonEvent",
  20: "OrderEvent",
  21: "FillEvent",
  22: "PositionEvent",
  23: "AccountEvent",
  40: "HeartbeatEvent",
  41: "SubscribedEvent",
} as const satisfies Record<number, string>;

export const MARKET_SUMMARY_TEMPLATE = 4;
export const HEARTBEAT_TEMPLATE = 40;

/**
 * MarketSummaryEvent's root block at version 1, byte offsets from the block's start. Fields sit in
 * declaration order, each int64 (the composites' exponents are schema constants, never on the wire):
 * ts, seq, markPrice, indexPrice, lastPrice, volumeUsd24h, openInterest, fundingRate (Rate8), bid,
 * ask, totalVolume, priceChangeRate24h, twelve option fields, externalFairPrice, bidSize, askSize
 * (216 bytes, version 0), then forwardRate, riskFreeRate and fundingRatePrecise (Rate12NULL), added
 * in version 1. The market symbol (varString8: a uint8 length, then UTF-8) follows the block.
 */
export const MARKET_SUMMARY_LAYOUT = {
  ts: 0,
  markPrice: 16,
  indexPrice: 24,
  fundingRate: 56,
  fundingRatePrecise: 232,
  blockLength: 240,
} as const;

/** The schema's null for every int64 mantissa (`nullValue="-9223372036854775808"`). */
const INT64_NULL = -(2n ** 63n);
/** Price8 / Rate8: mantissa × 10^-8. */
const EXPONENT_8 = 1e8;
/** Rate12: mantissa × 10^-12. */
const EXPONENT_12 = 1e12;

const utf8 = new TextDecoder("utf-8", { fatal: true });

/**
 * Paradex over `markets_summary.ALL`: one subscription, one binary MarketSummaryEvent frame per
 * market as its summary changes (push rate not documented). A frame states:
 * - `fundingRate`, the summary's `funding_rate`: the rate for the market's own funding period
 *   (`funding_period_hours`, 8 h by default), exactly as the REST connector reads it (no 8 h
 *   normalisation: the round's interval says which period). `fundingRatePrecise` (12 decimals) is
 *   preferred; the 8-decimal field is the fallback when it is null, as the schema directs.
 * - `markPrice` (`mark_price`) and `indexPrice` (`underlying_price`, the connector's index).
 * - `ts`, microseconds since the epoch: the update's venue time.
 * No next settlement (funding accrues continuously: the connector has none) and no predicted rate.
 * Control answers (subscribe acks, errors) come as JSON-RPC text frames; binary frames are channel
 * data. A binary frame of another schema id or version, an unknown or unsubscribed template, or a
 * block or string running past the frame's end is an error event: a layout is never guessed.
 * Paradex pings in the protocol every 55 s (the ws library pongs) and sends a HeartbeatEvent on
 * idle connections.
 */
export const paradexStream: VenueStreamProtocol = {
  venue: "paradex",
  sockets: (venueMarketIds) =>
    venueMarketIds.length === 0
      ? []
      : [{ url: PARADEX_STREAM_URL, subscribe: [JSON.stringify({ jsonrpc: "2.0", method: "subscribe", params: { channel: PARADEX_SUMMARY_CHANNEL }, id: 1 })] }],
  // Not documented; an all-market summary moves with every mark tick. A choice, as for Gate.
  stallAfterMs: 30_000,
  decode: (frame) => (typeof frame === "string" ? decodeMessage(frame, readControl) : decodeSbe(frame)),
};

function readControl(message: JsonRecord, text: string): StreamEvent[] {
  const error = asRecord(message.error);
  if (error) return [errorEvent(`venue error ${String(error.code)}: ${String(error.message)}`)];
  if (typeof asRecord(message.result)?.channel === "string") return [{ kind: "ack" }];
  // A public channel payload in JSON: the negotiation was ignored; its layout is not this decoder's.
  if (message.method === "subscription") return [errorEvent(`JSON channel payload where SBE was negotiated: ${clip(text)}`)];
  return unexpectedFrame(text);
}

/** The SBE message header of a binary frame. */
export interface SbeHeader {
  blockLength: number;
  templateId: number;
  schemaId: number;
  version: number;
}

export function readSbeHeader(frame: Buffer): SbeHeader | undefined {
  if (frame.length < SBE_HEADER_BYTES) return undefined;
  return { blockLength: frame.readUInt16LE(0), templateId: frame.readUInt16LE(2), schemaId: frame.readUInt16LE(4), version: frame.readUInt16LE(6) };
}

function decodeSbe(frame: Buffer): StreamEvent[] {
  const header = readSbeHeader(frame);
  if (!header) return [errorEvent(`truncated SBE frame: ${frame.length} bytes, the header alone is ${SBE_HEADER_BYTES}`)];
  const { blockLength, templateId, schemaId, version } = header;
  if (schemaId !== PARADEX_SBE_SCHEMA_ID || version !== PARADEX_SBE_SCHEMA_VERSION) {
    return [errorEvent(`SBE schema ${schemaId}:${version}, not the negotiated ${PARADEX_SBE_SCHEMA_ID}:${PARADEX_SBE_SCHEMA_VERSION} (template ${templateId})`)];
  }
  if (templateId === HEARTBEAT_TEMPLATE) return [{ kind: "heartbeat" }];
  if (templateId !== MARKET_SUMMARY_TEMPLATE) {
    const name = (PARADEX_TEMPLATES as Record<number, string>)[templateId];
    return [errorEvent(name ? `SBE template ${templateId} (${name}) was not subscribed` : `unknown SBE template ${templateId}`)];
  }
  return decodeMarketSummary(frame, blockLength);
}

function decodeMarketSummary(frame: Buffer, blockLength: number): StreamEvent[] {
  const layout = MARKET_SUMMARY_LAYOUT;
  // A version-1 block holds every field read here; a longer one (appended fields) is skipped by its length.
  if (blockLength < layout.blockLength) return [errorEvent(`MarketSummaryEvent block of ${blockLength} bytes, version 1 has ${layout.blockLength}`)];
  const marketAt = SBE_HEADER_BYTES + blockLength;
  if (frame.length < marketAt + 1) return [errorEvent(`truncated MarketSummaryEvent: ${frame.length} bytes, block and market length need ${marketAt + 1}`)];
  const marketEnd = marketAt + 1 + frame.readUInt8(marketAt);
  if (frame.length < marketEnd) return [errorEvent(`truncated MarketSummaryEvent: ${frame.length} bytes, the market symbol needs ${marketEnd}`)];
  let market: string;
  try {
    market = utf8.decode(frame.subarray(marketAt + 1, marketEnd));
  } catch {
    return [errorEvent("MarketSummaryEvent market symbol is not UTF-8")];
  }
  if (market === "") return [errorEvent("MarketSummaryEvent without a market symbol")];
  const int64 = (offset: number) => frame.readBigInt64LE(SBE_HEADER_BYTES + offset);
  const fields: StreamFields = {
    fundingRate: decimal(int64(layout.fundingRatePrecise), EXPONENT_12) ?? decimal(int64(layout.fundingRate), EXPONENT_8),
    markPrice: decimal(int64(layout.markPrice), EXPONENT_8),
    indexPrice: decimal(int64(layout.indexPrice), EXPONENT_8),
  };
  const ts = int64(layout.ts);
  const venueTime = ts > 0n ? Number(ts / 1000n) : null;
  return [{ kind: "updates", updates: [{ venueMarketId: market, fields, venueTime }] }];
}

/**
 * A fixed-point mantissa as a number, or null for the schema's null. Dividing the exact integer by
 * the power of ten rounds once, to the double nearest the decimal (mantissas below 2^53, which every
 * rate and any price under 90 million are).
 */
function decimal(mantissa: bigint, scale: number): number | null {
  return mantissa === INT64_NULL ? null : Number(mantissa) / scale;
}
