import { readFileSync } from "node:fs";
import { join } from "node:path";
import { backpackStream } from "@/lib/market/venues/streams/backpack";
import { bitmexStream } from "@/lib/market/venues/streams/bitmex";
import { coinexStream } from "@/lib/market/venues/streams/coinex";
import { deribitStream } from "@/lib/market/venues/streams/deribit";
import { grvtStream } from "@/lib/market/venues/streams/grvt";
import { htxStream } from "@/lib/market/venues/streams/htx";
import { KUCOIN_FUTURES_BULLET_URL, kucoinfuturesStream } from "@/lib/market/venues/streams/kucoinfutures";
import { mexcStream } from "@/lib/market/venues/streams/mexc";
import { phemexStream } from "@/lib/market/venues/streams/phemex";
import type { StreamEvent, StreamSocketPlan, VenueStreamProtocol } from "@/lib/market/venues/streams/stream-protocol";
import { wooStream } from "@/lib/market/venues/streams/woo";

/*
 * What every venue's stream protocol must make of its recorded or documented frames, one row a
 * venue (the idea of freqtrade's EXCHANGES table, as in venue-expectations.ts).
 * stream-contract-b.test.ts runs the same assertions on every row: the sockets and subscribe frames
 * for two or three markets, every line of every fixture decoded without an error event (except the
 * lines listed as documented errors, which must give exactly one), and the exact events of chosen
 * lines. Fixture files are under tests/fixtures/streams/<venue>/, each listed in its SOURCES.md.
 */

export interface StreamFrameExpectation {
  /** `<venue>/<file>` under tests/fixtures/streams. */
  fixture: string;
  /** 1-based line of the file. */
  line: number;
  events: StreamEvent[];
}

export interface StreamExpectationRow {
  name: string;
  protocol: VenueStreamProtocol;
  fixtures: readonly string[];
  /** The venue sends gzip binary frames: each line is replayed gzipped. */
  gzip: boolean;
  /** Lines that are the venue's documented errors (`<fixture>:<line>`): each must decode to one error event. */
  errorLines: readonly string[];
  markets: readonly string[];
  sockets: StreamSocketPlan[];
  frames: readonly StreamFrameExpectation[];
}

const FIXTURES = join(__dirname, "../fixtures/streams");

/** The lines of a stream fixture, in order (one message a line). */
export function streamFixtureLines(fixture: string): string[] {
  return readFileSync(join(FIXTURES, fixture), "utf8")
    .split("\n")
    .filter((line) => line.trim() !== "");
}

const json = (value: unknown) => JSON.stringify(value);
const iso = (value: string) => Date.parse(value);

export const STREAM_EXPECTATIONS_B: readonly StreamExpectationRow[] = [
  {
    name: "mexc, push.ticker per contract: fairPrice is the mark, inverse and linear alike",
    protocol: mexcStream,
    fixtures: ["mexc/push.ticker_2022-06-02_cmp.jsonl"],
    gzip: false,
    errorLines: [],
    markets: ["BTC_USDT", "ETH_USDT", "SOL_USDT"],
    sockets: [
      {
        url: "wss://contract.mexc.com/edge",
        subscribe: ["BTC_USDT", "ETH_USDT", "SOL_USDT"].map((symbol) => json({ method: "sub.ticker", param: { symbol } })),
      },
    ],
    frames: [
      {
        fixture: "mexc/push.ticker_2022-06-02_cmp.jsonl",
        line: 2,
        events: [{ kind: "updates", updates: [{ venueMarketId: "BTC_USDT", fields: { fundingRate: 0.000072, markPrice: 29911.1, indexPrice: 29926.9 }, venueTime: 1654165943014 }] }],
      },
      {
        fixture: "mexc/push.ticker_2022-06-02_cmp.jsonl",
        line: 1,
        events: [{ kind: "updates", updates: [{ venueMarketId: "BTC_USD", fields: { fundingRate: -0.000012, markPrice: 29903.13, indexPrice: 29926.05 }, venueTime: 1654165977028 }] }],
      },
    ],
  },
  {
    name: "kucoinfutures, /contract/instrument: the minute rate, the mark and index, never the settled rate",
    protocol: kucoinfuturesStream,
    fixtures: ["kucoinfutures/contract_instrument_2024-01-24_tardis.jsonl", "kucoinfutures/error_ccxt-comment.jsonl"],
    gzip: false,
    errorLines: ["kucoinfutures/error_ccxt-comment.jsonl:1"],
    markets: ["XBTUSDTM", "ETHUSDTM", "SOLUSDTM"],
    sockets: [
      {
        url: KUCOIN_FUTURES_BULLET_URL,
        subscribe: [json({ id: "1", type: "subscribe", topic: "/contract/instrument:XBTUSDTM,ETHUSDTM,SOLUSDTM", privateChannel: false, response: true })],
      },
    ],
    frames: [
      {
        fixture: "kucoinfutures/contract_instrument_2024-01-24_tardis.jsonl",
        line: 1,
        events: [{ kind: "updates", updates: [{ venueMarketId: "XBTUSDTM", fields: { fundingRate: 0.000038 }, venueTime: 1706068800000 }] }],
      },
      {
        fixture: "kucoinfutures/contract_instrument_2024-01-24_tardis.jsonl",
        line: 2,
        events: [{ kind: "updates", updates: [{ venueMarketId: "XBTUSDTM", fields: { markPrice: 39610.11, indexPrice: 39615.44 }, venueTime: 1706068801000 }] }],
      },
      // granularity 28800000: the rate settled at 04:00, not the running one.
      { fixture: "kucoinfutures/contract_instrument_2024-01-24_tardis.jsonl", line: 3, events: [{ kind: "heartbeat" }] },
      {
        fixture: "kucoinfutures/contract_instrument_2024-01-24_tardis.jsonl",
        line: 6,
        events: [{ kind: "updates", updates: [{ venueMarketId: "XBTUSDTM", fields: { fundingRate: 0.000032 }, venueTime: 1706068800000 }] }],
      },
    ],
  },
  {
    name: "htx, public.*.funding_rate (gzip): settlement_time is the next settlement, funding_time is not",
    protocol: htxStream,
    fixtures: ["htx/funding_rate_2020_tardis.jsonl", "htx/funding_rate_2021-2022_cmp.jsonl", "htx/ping_ccxt-comment.jsonl"],
    gzip: true,
    errorLines: [],
    markets: ["BTC-USDT", "ETH-USDT"],
    sockets: [{ url: "wss://api.hbdm.vn/linear-swap-notification", subscribe: [json({ op: "sub", cid: "funding", topic: "public.*.funding_rate" })] }],
    frames: [
      { fixture: "htx/funding_rate_2020_tardis.jsonl", line: 2, events: [{ kind: "ack" }] },
      {
        fixture: "htx/funding_rate_2020_tardis.jsonl",
        line: 3,
        events: [
          {
            kind: "updates",
            updates: [{ venueMarketId: "BTC-USDT", fields: { fundingRate: 0.0001, predictedFundingRate: 0.000236636095370214, nextFundingAt: 1606780800000 }, venueTime: 1606780803260 }],
          },
        ],
      },
      {
        fixture: "htx/funding_rate_2021-2022_cmp.jsonl",
        line: 2,
        events: [
          {
            kind: "updates",
            updates: [{ venueMarketId: "BTC-USDT", fields: { fundingRate: 0.000754108135233895, predictedFundingRate: 0.000429934303518805, nextFundingAt: 1617321600000 }, venueTime: 1617309787271 }],
          },
        ],
      },
      {
        fixture: "htx/funding_rate_2021-2022_cmp.jsonl",
        line: 3,
        events: [
          {
            kind: "updates",
            updates: [
              { venueMarketId: "BTC-USD", fields: { fundingRate: 0.000046774664737679, predictedFundingRate: -0.000042194357938054, nextFundingAt: 1654185600000 }, venueTime: 1654174017332 },
              { venueMarketId: "ETH-USD", fields: { fundingRate: -0.000050627986553411, predictedFundingRate: 0.000074887269002104, nextFundingAt: 1654185600000 }, venueTime: 1654174017332 },
            ],
          },
        ],
      },
      { fixture: "htx/ping_ccxt-comment.jsonl", line: 1, events: [{ kind: "reply", frame: json({ op: "pong", ts: "1645202800015" }) }] },
    ],
  },
  {
    name: "deribit, ticker.<instrument>.100ms: current_funding 0 is a rate of 0; test_request is answered",
    protocol: deribitStream,
    fixtures: ["deribit/ticker_BTC-PERPETUAL_2019_tardis.jsonl", "deribit/ticker_BTC-PERPETUAL_2022-06-02_cmp.jsonl", "deribit/heartbeat_docs.jsonl"],
    gzip: false,
    errorLines: [],
    markets: ["BTC_USDC-PERPETUAL", "ETH_USDC-PERPETUAL"],
    sockets: [
      {
        url: "wss://www.deribit.com/ws/api/v2",
        subscribe: [
          json({ jsonrpc: "2.0", id: 0, method: "public/set_heartbeat", params: { interval: 30 } }),
          json({ jsonrpc: "2.0", id: 1, method: "public/subscribe", params: { channels: ["ticker.BTC_USDC-PERPETUAL.100ms", "ticker.ETH_USDC-PERPETUAL.100ms"] } }),
        ],
      },
    ],
    frames: [
      {
        fixture: "deribit/ticker_BTC-PERPETUAL_2022-06-02_cmp.jsonl",
        line: 1,
        events: [{ kind: "updates", updates: [{ venueMarketId: "BTC-PERPETUAL", fields: { fundingRate: 0, markPrice: 29932.79, indexPrice: 29930.44 }, venueTime: 1654161785818 }] }],
      },
      {
        fixture: "deribit/ticker_BTC-PERPETUAL_2019_tardis.jsonl",
        line: 2,
        events: [{ kind: "updates", updates: [{ venueMarketId: "BTC-PERPETUAL", fields: { fundingRate: 0, markPrice: 8304.39, indexPrice: 8305.94 }, venueTime: 1569888003897 }] }],
      },
      { fixture: "deribit/heartbeat_docs.jsonl", line: 1, events: [{ kind: "reply", frame: json({ jsonrpc: "2.0", id: "test", method: "public/test", params: {} }) }] },
      { fixture: "deribit/heartbeat_docs.jsonl", line: 2, events: [{ kind: "heartbeat" }] },
    ],
  },
  {
    name: "coinex, state.subscribe for every market (gzip): latest_funding_time is the next settlement",
    protocol: coinexStream,
    fixtures: ["coinex/state.update_2026-09-23_observatory.jsonl"],
    gzip: true,
    errorLines: ["coinex/state.update_2026-09-23_observatory.jsonl:4"],
    markets: ["BTCUSDT", "ETHUSDT"],
    sockets: [{ url: "wss://socket.coinex.com/v2/futures", subscribe: [json({ method: "state.subscribe", params: { market_list: [] }, id: 1 })] }],
    frames: [
      { fixture: "coinex/state.update_2026-09-23_observatory.jsonl", line: 1, events: [{ kind: "ack" }] },
      {
        fixture: "coinex/state.update_2026-09-23_observatory.jsonl",
        line: 2,
        events: [
          {
            kind: "updates",
            updates: [
              {
                venueMarketId: "BTCUSDT",
                fields: { fundingRate: -0.00375, predictedFundingRate: -0.00375, nextFundingAt: 1790064000000, markPrice: 83154, indexPrice: 85618.24 },
                venueTime: null,
              },
            ],
          },
        ],
      },
      { fixture: "coinex/state.update_2026-09-23_observatory.jsonl", line: 3, events: [{ kind: "heartbeat" }] },
    ],
  },
  {
    name: "phemex, perp_market24h_pack_p for every symbol: columns by name, nanosecond time",
    protocol: phemexStream,
    fixtures: ["phemex/perp_market24h_pack_p_docs-example.jsonl", "phemex/errors_2026-09-23_observatory.jsonl"],
    gzip: false,
    errorLines: ["phemex/errors_2026-09-23_observatory.jsonl:2"],
    markets: ["BTCUSDT", "ETHUSDT"],
    sockets: [{ url: "wss://ws.phemex.com", subscribe: [json({ id: 1, method: "perp_market24h_pack_p.subscribe", params: [] })] }],
    frames: [
      { fixture: "phemex/perp_market24h_pack_p_docs-example.jsonl", line: 1, events: [{ kind: "ack" }] },
      {
        fixture: "phemex/perp_market24h_pack_p_docs-example.jsonl",
        line: 2,
        events: [
          {
            kind: "updates",
            updates: [
              { venueMarketId: "ETHUSDT", fields: { fundingRate: 0.0001, predictedFundingRate: 0.0001, markPrice: 1548.44513153, indexPrice: 1548.31694379 }, venueTime: 1666862556850 },
              { venueMarketId: "BTCUSDT", fields: { fundingRate: 0.0001, predictedFundingRate: 0.0001, markPrice: 20643.52572781, indexPrice: 20641.8167574 }, venueTime: 1666862556850 },
            ],
          },
        ],
      },
      { fixture: "phemex/perp_market24h_pack_p_docs-example.jsonl", line: 3, events: [{ kind: "heartbeat" }] },
    ],
  },
  {
    name: "woo, v3 markprice@ and estfundingrate@ (legacy topics read too): the estimate is rate and forecast",
    protocol: wooStream,
    fixtures: [
      "woo/markprice_estfundingrate_v3_2026-06-29_tardis.jsonl",
      "woo/markprice_estfundingrate_legacy_2023-01-23_tardis.jsonl",
      "woo/v3_frames_2026-09-23_observatory.jsonl",
    ],
    gzip: false,
    errorLines: ["woo/v3_frames_2026-09-23_observatory.jsonl:5"],
    markets: ["PERP_BTC_USDT", "PERP_ETH_USDT", "PERP_SOL_USDT"],
    sockets: [
      {
        url: "wss://wss.woox.io/v3/public",
        subscribe: [
          json({
            id: "1",
            cmd: "SUBSCRIBE",
            params: ["markprice@PERP_BTC_USDT", "estfundingrate@PERP_BTC_USDT", "markprice@PERP_ETH_USDT", "estfundingrate@PERP_ETH_USDT", "markprice@PERP_SOL_USDT", "estfundingrate@PERP_SOL_USDT"],
          }),
        ],
      },
    ],
    frames: [
      {
        fixture: "woo/markprice_estfundingrate_v3_2026-06-29_tardis.jsonl",
        line: 1,
        events: [{ kind: "updates", updates: [{ venueMarketId: "PERP_ETH_USDT", fields: { markPrice: 1622.9 }, venueTime: 1782770880000 }] }],
      },
      {
        fixture: "woo/markprice_estfundingrate_v3_2026-06-29_tardis.jsonl",
        line: 2,
        events: [
          {
            kind: "updates",
            updates: [{ venueMarketId: "PERP_ETH_USDT", fields: { fundingRate: 0.00001181, predictedFundingRate: 0.00001181, nextFundingAt: 1782777600000 }, venueTime: 1782770939000 }],
          },
        ],
      },
      {
        fixture: "woo/markprice_estfundingrate_legacy_2023-01-23_tardis.jsonl",
        line: 2,
        events: [
          {
            kind: "updates",
            updates: [{ venueMarketId: "PERP_BTC_USDT", fields: { fundingRate: 7.82e-6, predictedFundingRate: 7.82e-6, nextFundingAt: 1674435600005 }, venueTime: 1674432059002 }],
          },
        ],
      },
      { fixture: "woo/v3_frames_2026-09-23_observatory.jsonl", line: 3, events: [{ kind: "heartbeat" }] },
    ],
  },
  {
    name: "grvt, v1.ticker.s per instrument: funding_rate in percentage points, nanosecond times",
    protocol: grvtStream,
    fixtures: ["grvt/v1.ticker.s_docs-example.jsonl"],
    gzip: false,
    errorLines: ["grvt/v1.ticker.s_docs-example.jsonl:3"],
    markets: ["BTC_USDT_Perp", "ETH_USDT_Perp"],
    sockets: [
      {
        url: "wss://market-data.grvt.io/ws/full",
        subscribe: [json({ jsonrpc: "2.0", method: "subscribe", params: { stream: "v1.ticker.s", selectors: ["BTC_USDT_Perp@500", "ETH_USDT_Perp@500"] }, id: 1 })],
      },
    ],
    frames: [
      { fixture: "grvt/v1.ticker.s_docs-example.jsonl", line: 1, events: [{ kind: "ack" }] },
      {
        fixture: "grvt/v1.ticker.s_docs-example.jsonl",
        line: 2,
        events: [
          {
            kind: "updates",
            updates: [{ venueMarketId: "BTC_USDT_Perp", fields: { fundingRate: 0.000003, nextFundingAt: 1697788800000, markPrice: 65038.01, indexPrice: 65038.01 }, venueTime: 1697788800000 }],
          },
        ],
      },
    ],
  },
  {
    name: "backpack, markPrice.<symbol>: f, n, p, i; times in microseconds",
    protocol: backpackStream,
    fixtures: ["backpack/markPrice_2026-09-23_observatory.jsonl"],
    gzip: false,
    errorLines: ["backpack/markPrice_2026-09-23_observatory.jsonl:2", "backpack/markPrice_2026-09-23_observatory.jsonl:3"],
    markets: ["BTC_USDC_PERP", "ETH_USDC_PERP", "AAPL.US_USDC_PERP"],
    sockets: [{ url: "wss://ws.backpack.exchange", subscribe: [json({ method: "SUBSCRIBE", params: ["markPrice.BTC_USDC_PERP", "markPrice.ETH_USDC_PERP", "markPrice.AAPL.US_USDC_PERP"] })] }],
    frames: [
      {
        fixture: "backpack/markPrice_2026-09-23_observatory.jsonl",
        line: 1,
        events: [
          {
            kind: "updates",
            updates: [{ venueMarketId: "AAPL.US_USDC_PERP", fields: { fundingRate: 0.00000625, nextFundingAt: 1790136000000, markPrice: 340.43, indexPrice: 340.52 }, venueTime: 1790134357846 }],
          },
        ],
      },
    ],
  },
  {
    name: "bitmex, the instrument table: partial rows, then only the fields that changed",
    protocol: bitmexStream,
    fixtures: ["bitmex/instrument_XBTUSD_2021-12-18_mst-gateway.jsonl", "bitmex/instrument_2019-06-01_tardis.jsonl", "bitmex/funding_table_2021-2022_cmp.jsonl"],
    gzip: false,
    errorLines: [],
    markets: ["XBTUSDT", "ETHUSDT"],
    sockets: [{ url: "wss://ws.bitmex.com/realtime", subscribe: [json({ op: "subscribe", args: ["instrument"] })] }],
    frames: [
      {
        fixture: "bitmex/instrument_XBTUSD_2021-12-18_mst-gateway.jsonl",
        line: 1,
        events: [
          {
            kind: "updates",
            updates: [
              {
                venueMarketId: "XBTUSD",
                fields: { fundingRate: 0.0001, predictedFundingRate: 0.0001, nextFundingAt: iso("2021-12-18T20:00:00.000Z"), markPrice: 46704.01, indexPrice: 46703.96 },
                venueTime: iso("2021-12-18T19:55:00.000Z"),
              },
            ],
          },
        ],
      },
      // `lastPrice` alone: no funding field changed.
      { fixture: "bitmex/instrument_XBTUSD_2021-12-18_mst-gateway.jsonl", line: 2, events: [{ kind: "heartbeat" }] },
      {
        fixture: "bitmex/instrument_XBTUSD_2021-12-18_mst-gateway.jsonl",
        line: 3,
        events: [{ kind: "updates", updates: [{ venueMarketId: "XBTUSD", fields: { markPrice: 46599.19, indexPrice: 46594.56 }, venueTime: iso("2021-12-18T20:03:05.000Z") }] }],
      },
      {
        fixture: "bitmex/instrument_2019-06-01_tardis.jsonl",
        line: 2,
        events: [
          {
            kind: "updates",
            updates: [
              {
                venueMarketId: "ETHM19",
                fields: { fundingRate: null, predictedFundingRate: null, nextFundingAt: null, markPrice: 0.03162, indexPrice: 0.03131 },
                venueTime: iso("2019-05-31T23:59:30.000Z"),
              },
              {
                venueMarketId: "LTCM19",
                fields: { fundingRate: null, predictedFundingRate: null, nextFundingAt: null, markPrice: 0.013533, indexPrice: 0.013382 },
                venueTime: iso("2019-05-31T23:59:55.000Z"),
              },
            ],
          },
        ],
      },
      // The funding table holds settlements, not the live rate.
      { fixture: "bitmex/funding_table_2021-2022_cmp.jsonl", line: 1, events: [{ kind: "heartbeat" }] },
    ],
  },
];
