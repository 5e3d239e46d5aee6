import type { VenueId } from "@/lib/market/model/types";
import type { StreamEvent, StreamSocketPlan, StreamUpdate } from "@/lib/market/venues/streams/stream-protocol";

/*
 * What every stream protocol must make of its venue's recorded or documented frames, one row a
 * venue (the connectors' VENUE_EXPECTATIONS, for sockets); the same row shape as the other venues'
 * table (stream-expectations.ts), plus `gzip` for venues whose frames are gzip binary.
 * stream-contract-b.test.ts decodes every line of each row's files, compares the chosen frames'
 * events, checks the subscribe plan for a few markets and the venue's limits for many. The files
 * live in tests/fixtures/streams/<venue>/, each listed with its source in the SOURCES.md beside it
 * (REAL recordings, DOC examples). A frame's `trap` names the trap it shows, or says SYNTHETIC
 * where the frame is written here.
 */

export interface FrameExpectation {
  /** A fixture file of the row and a 1-based line, or a frame written here (labelled SYNTHETIC in `trap`). */
  file?: string;
  line?: number;
  frame?: string;
  /** The events, exactly. */
  events: StreamEvent[];
  /** The trap the frame shows, or why the frame is here. */
  trap?: string;
}

export interface LimitExpectation {
  /** How many markets to plan for. */
  markets: number;
  /** Synthetic market ids in the venue's form. */
  ids: (count: number) => string[];
  /** The subscriptions a frame makes, one string per (channel, market), to check each market is covered once. */
  topicsOf: (frame: string) => string[];
  /** The subscriptions the markets need, in the same form. */
  topicsFor: (ids: readonly string[]) => string[];
  sockets: number;
  marketsPerSocket?: number;
  frameBytes?: number;
  argsPerFrame?: number;
}

export interface StreamRow {
  venue: VenueId;
  /** What the files are: REAL or DOC, as their SOURCES.md rows say. */
  fixture: string;
  files: readonly string[];
  /** The venue sends gzip binary frames: every line is also replayed gzipped. */
  gzip?: boolean;
  /** `file:line` of lines that are documented venue errors: only they may decode to an error event. */
  errorLines?: readonly string[];
  /** The plan for a few markets, exactly. */
  plan: { markets: readonly string[]; sockets: StreamSocketPlan[] };
  keepalive?: { frame: string; everyMs: number };
  stallAfterMs: number;
  maxLifetimeMs?: number;
  frames: readonly FrameExpectation[];
  limits: LimitExpectation;
}

const updates = (...list: StreamUpdate[]): StreamEvent => ({ kind: "updates", updates: list });
const json = (value: unknown) => JSON.stringify(value);
const iso = (value: string) => Date.parse(value);
const DAY = 24 * 3_600_000;

const parse = (frame: string) => JSON.parse(frame) as Record<string, unknown>;
const symbols = (prefix: string, suffix: string) => (count: number) => Array.from({ length: count }, (_, i) => `${prefix}${i}${suffix}`);

/** An all-markets channel: any number of markets is one socket with one subscription. */
function allMarkets(topic: string, topicsOf: (frame: string) => string[]): LimitExpectation {
  return { markets: 600, ids: symbols("M", ""), topicsOf, topicsFor: () => [topic], sockets: 1 };
}

const KUCOIN_BULLET = "https://api-futures.kucoin.com/api/v1/bullet-public";
const kucoinSymbols = (frame: string) => String(parse(frame).topic).replace("/contract/instrument:", "").split(",");

export const STREAM_EXPECTATIONS_B: readonly StreamRow[] = [
  {
    venue: "mexc",
    fixture: "REAL: crypto-msg-parser `push.ticker` messages (2022-06-02), inverse and linear.",
    files: ["push.ticker_2022-06-02_cmp.jsonl"],
    plan: {
      markets: ["BTC_USDT", "ETH_USDT", "SOL_USDT"],
      sockets: [{ url: "wss://contract.mexc.com/edge", subscribe: ["BTC_USDT", "ETH_USDT", "SOL_USDT"].map((symbol) => json({ method: "sub.ticker", param: { symbol } })) }],
    },
    keepalive: { frame: '{"method":"ping"}', everyMs: 15_000 },
    stallAfterMs: 10_000,
    frames: [
      {
        file: "push.ticker_2022-06-02_cmp.jsonl", line: 2,
        trap: "the mark is named `fairPrice`; every value is a JSON number",
        events: [updates({ venueMarketId: "BTC_USDT", fields: { fundingRate: 0.000072, markPrice: 29911.1, indexPrice: 29926.9 }, venueTime: 1654165943014 })],
      },
      {
        file: "push.ticker_2022-06-02_cmp.jsonl", line: 1,
        trap: "an inverse contract keeps its own id (the round has no BTC_USD, so the update lands nowhere)",
        events: [updates({ venueMarketId: "BTC_USD", fields: { fundingRate: -0.000012, markPrice: 29903.13, indexPrice: 29926.05 }, venueTime: 1654165977028 })],
      },
      { frame: '{"channel":"rs.sub.ticker","data":"success","ts":1654165943014}', trap: "SYNTHETIC in MEXC's documented form: the subscription answer", events: [{ kind: "ack" }] },
      { frame: '{"channel":"pong","data":1654165943014}', trap: "SYNTHETIC in MEXC's documented form: the ping answer", events: [{ kind: "heartbeat" }] },
    ],
    limits: {
      markets: 600,
      ids: symbols("COIN", "_USDT"),
      topicsOf: (frame) => [String((parse(frame).param as { symbol: string }).symbol)],
      topicsFor: (ids) => [...ids],
      sockets: 20,
      marketsPerSocket: 30,
    },
  },
  {
    venue: "kucoinfutures",
    fixture: "REAL: tardis `/contract/instrument` messages (2024-01-24); DOC: the error frame ccxt quotes.",
    files: ["contract_instrument_2024-01-24_tardis.jsonl", "error_ccxt-comment.jsonl"],
    errorLines: ["error_ccxt-comment.jsonl:1"],
    plan: {
      markets: ["XBTUSDTM", "ETHUSDTM", "SOLUSDTM"],
      sockets: [{ url: KUCOIN_BULLET, subscribe: [json({ id: "1", type: "subscribe", topic: "/contract/instrument:XBTUSDTM,ETHUSDTM,SOLUSDTM", privateChannel: false, response: true })] }],
    },
    keepalive: { frame: '{"id":"ping","type":"ping"}', everyMs: 18_000 },
    stallAfterMs: 10_000,
    frames: [
      {
        file: "contract_instrument_2024-01-24_tardis.jsonl", line: 1,
        trap: "`funding.rate` at granularity 60000: the running rate, a JSON number",
        events: [updates({ venueMarketId: "XBTUSDTM", fields: { fundingRate: 0.000038 }, venueTime: 1706068800000 })],
      },
      {
        file: "contract_instrument_2024-01-24_tardis.jsonl", line: 2,
        trap: "`mark.index.price` has numeric `markPrice`/`indexPrice`",
        events: [updates({ venueMarketId: "XBTUSDTM", fields: { markPrice: 39610.11, indexPrice: 39615.44 }, venueTime: 1706068801000 })],
      },
      {
        file: "contract_instrument_2024-01-24_tardis.jsonl", line: 3,
        trap: "two granularities for the same timestamp: 28800000 is the settled rate, not mixed in",
        events: [{ kind: "heartbeat" }],
      },
      {
        file: "contract_instrument_2024-01-24_tardis.jsonl", line: 6,
        events: [updates({ venueMarketId: "XBTUSDTM", fields: { fundingRate: 0.000032 }, venueTime: 1706068800000 })],
      },
      { frame: '{"id":"hQvf8jkno","type":"welcome"}', trap: "SYNTHETIC in KuCoin's documented form: the greeting on connect", events: [{ kind: "heartbeat" }] },
      { frame: '{"id":"1","type":"ack"}', trap: "SYNTHETIC in KuCoin's documented form: the subscription answer", events: [{ kind: "ack" }] },
    ],
    limits: {
      markets: 600,
      ids: symbols("COIN", "USDTM"),
      topicsOf: kucoinSymbols,
      topicsFor: (ids) => [...ids],
      sockets: 2,
      marketsPerSocket: 300,
      argsPerFrame: 100,
    },
  },
  {
    venue: "htx",
    fixture: "REAL: tardis (2020) and crypto-msg-parser (2021-2022) `funding_rate` notifications and a `sub` ack; DOC: the ping ccxt quotes.",
    files: ["funding_rate_2020_tardis.jsonl", "funding_rate_2021-2022_cmp.jsonl", "ping_ccxt-comment.jsonl"],
    gzip: true,
    plan: { markets: ["BTC-USDT", "ETH-USDT"], sockets: [{ url: "wss://api.hbdm.vn/linear-swap-notification", subscribe: [json({ op: "sub", cid: "funding", topic: "public.*.funding_rate" })] }] },
    stallAfterMs: 180_000,
    frames: [
      { file: "funding_rate_2020_tardis.jsonl", line: 2, trap: "the subscribe ack `{op: sub, err-code: 0}`", events: [{ kind: "ack" }] },
      {
        file: "funding_rate_2020_tardis.jsonl", line: 3,
        events: [updates({ venueMarketId: "BTC-USDT", fields: { fundingRate: 0.0001, predictedFundingRate: 0.000236636095370214, nextFundingAt: 1606780800000 }, venueTime: 1606780803260 })],
      },
      {
        file: "funding_rate_2021-2022_cmp.jsonl", line: 2,
        trap: "`funding_time` (09:33) is the calculation minute; `settlement_time` (16:00) is the next settlement",
        events: [updates({ venueMarketId: "BTC-USDT", fields: { fundingRate: 0.000754108135233895, predictedFundingRate: 0.000429934303518805, nextFundingAt: 1617321600000 }, venueTime: 1617309787271 })],
      },
      {
        file: "funding_rate_2021-2022_cmp.jsonl", line: 3,
        trap: "`public.*.funding_rate` carries every contract in one message",
        events: [
          updates(
            { venueMarketId: "BTC-USD", fields: { fundingRate: 0.000046774664737679, predictedFundingRate: -0.000042194357938054, nextFundingAt: 1654185600000 }, venueTime: 1654174017332 },
            { venueMarketId: "ETH-USD", fields: { fundingRate: -0.000050627986553411, predictedFundingRate: 0.000074887269002104, nextFundingAt: 1654185600000 }, venueTime: 1654174017332 },
          ),
        ],
      },
      { file: "ping_ccxt-comment.jsonl", line: 1, trap: "the venue's ping is answered with its own ts", events: [{ kind: "reply", frame: '{"op":"pong","ts":"1645202800015"}' }] },
    ],
    limits: allMarkets("public.*.funding_rate", (frame) => [String(parse(frame).topic)]),
  },
  {
    venue: "deribit",
    fixture: "REAL: tardis (2019, `.raw`) and crypto-msg-parser (2022, `.100ms`) BTC-PERPETUAL tickers; DOC: the heartbeat messages.",
    files: ["ticker_BTC-PERPETUAL_2019_tardis.jsonl", "ticker_BTC-PERPETUAL_2022-06-02_cmp.jsonl", "heartbeat_docs.jsonl"],
    plan: {
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
    },
    stallAfterMs: 10_000,
    frames: [
      {
        file: "ticker_BTC-PERPETUAL_2022-06-02_cmp.jsonl", line: 1,
        trap: "`current_funding` 0 is a rate of 0 (inside the damper), kept; `funding_8h` is the trailing settlement, not a stream field",
        events: [updates({ venueMarketId: "BTC-PERPETUAL", fields: { fundingRate: 0, markPrice: 29932.79, indexPrice: 29930.44 }, venueTime: 1654161785818 })],
      },
      {
        file: "ticker_BTC-PERPETUAL_2019_tardis.jsonl", line: 2,
        events: [updates({ venueMarketId: "BTC-PERPETUAL", fields: { fundingRate: 0, markPrice: 8304.39, indexPrice: 8305.94 }, venueTime: 1569888003897 })],
      },
      { file: "heartbeat_docs.jsonl", line: 1, trap: "a `test_request` must be answered with `public/test`", events: [{ kind: "reply", frame: '{"jsonrpc":"2.0","id":"test","method":"public/test","params":{}}' }] },
      { file: "heartbeat_docs.jsonl", line: 2, events: [{ kind: "heartbeat" }] },
      {
        frame: '{"jsonrpc":"2.0","id":1,"result":["ticker.BTC_USDC-PERPETUAL.100ms"],"usIn":1,"usOut":2,"usDiff":1,"testnet":false}',
        trap: "SYNTHETIC in Deribit's documented form: `public/subscribe` answers the channels subscribed",
        events: [{ kind: "ack" }],
      },
      {
        frame: '{"jsonrpc":"2.0","id":1,"error":{"message":"Invalid params","code":-32602}}',
        trap: "SYNTHETIC in JSON-RPC's form: a refused request",
        events: [{ kind: "error", message: "deribit -32602: Invalid params" }],
      },
    ],
    limits: {
      markets: 600,
      ids: symbols("COIN_USDC", "-PERPETUAL"),
      topicsOf: (frame) => ((parse(frame).params as { channels?: string[] }).channels ?? []),
      topicsFor: (ids) => ids.map((id) => `ticker.${id}.100ms`),
      sockets: 1,
      argsPerFrame: 100,
    },
  },
  {
    venue: "coinex",
    fixture: "DOC: frames the observatory captured from the futures socket on 2026-09-23 (after gunzip); no recording exists.",
    files: ["state.update_2026-09-23_observatory.jsonl"],
    gzip: true,
    errorLines: ["state.update_2026-09-23_observatory.jsonl:4"],
    plan: { markets: ["BTCUSDT", "ETHUSDT"], sockets: [{ url: "wss://socket.coinex.com/v2/futures", subscribe: [json({ method: "state.subscribe", params: { market_list: [] }, id: 1 })] }] },
    keepalive: { frame: '{"method":"server.ping","params":{},"id":2}', everyMs: 20_000 },
    stallAfterMs: 10_000,
    frames: [
      { file: "state.update_2026-09-23_observatory.jsonl", line: 1, events: [{ kind: "ack" }] },
      {
        file: "state.update_2026-09-23_observatory.jsonl", line: 2,
        trap: "`latest_funding_time` is the settlement the current rate is collected at (the connector's next settlement); the row has no time",
        events: [updates({ venueMarketId: "BTCUSDT", fields: { fundingRate: -0.00375, predictedFundingRate: -0.00375, nextFundingAt: 1790064000000, markPrice: 83154, indexPrice: 85618.24 }, venueTime: null })],
      },
      { file: "state.update_2026-09-23_observatory.jsonl", line: 3, trap: "the `server.ping` answer", events: [{ kind: "heartbeat" }] },
    ],
    limits: allMarkets("state.subscribe", (frame) => [String(parse(frame).method)]),
  },
  {
    venue: "phemex",
    fixture: "DOC: Phemex's documented `perp_market24h_pack_p` example and the observatory's captured replies; no recording exists.",
    files: ["perp_market24h_pack_p_docs-example.jsonl", "errors_2026-09-23_observatory.jsonl"],
    errorLines: ["errors_2026-09-23_observatory.jsonl:2"],
    plan: { markets: ["BTCUSDT", "ETHUSDT"], sockets: [{ url: "wss://ws.phemex.com", subscribe: [json({ id: 1, method: "perp_market24h_pack_p.subscribe", params: [] })] }] },
    keepalive: { frame: '{"id":0,"method":"server.ping","params":[]}', everyMs: 5_000 },
    stallAfterMs: 15_000,
    frames: [
      { file: "perp_market24h_pack_p_docs-example.jsonl", line: 1, events: [{ kind: "ack" }] },
      {
        file: "perp_market24h_pack_p_docs-example.jsonl", line: 2,
        trap: "a columnar frame: `fields` names the columns; `timestamp` is epoch nanoseconds",
        events: [
          updates(
            { venueMarketId: "ETHUSDT", fields: { fundingRate: 0.0001, predictedFundingRate: 0.0001, markPrice: 1548.44513153, indexPrice: 1548.31694379 }, venueTime: 1666862556850 },
            { venueMarketId: "BTCUSDT", fields: { fundingRate: 0.0001, predictedFundingRate: 0.0001, markPrice: 20643.52572781, indexPrice: 20641.8167574 }, venueTime: 1666862556850 },
          ),
        ],
      },
      { file: "perp_market24h_pack_p_docs-example.jsonl", line: 3, events: [{ kind: "heartbeat" }] },
      { file: "errors_2026-09-23_observatory.jsonl", line: 1, events: [{ kind: "heartbeat" }] },
    ],
    limits: allMarkets("perp_market24h_pack_p.subscribe", (frame) => [String(parse(frame).method)]),
  },
  {
    venue: "woo",
    fixture: "REAL: tardis v3 and legacy `markprice`/`estfundingrate` messages (2023, 2026); DOC: the observatory's captured v3 frames.",
    files: ["markprice_estfundingrate_v3_2026-06-29_tardis.jsonl", "markprice_estfundingrate_legacy_2023-01-23_tardis.jsonl", "v3_frames_2026-09-23_observatory.jsonl"],
    errorLines: ["v3_frames_2026-09-23_observatory.jsonl:5"],
    plan: {
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
    },
    keepalive: { frame: "protocol-ping", everyMs: 15_000 },
    stallAfterMs: 10_000,
    maxLifetimeMs: DAY,
    frames: [
      {
        file: "markprice_estfundingrate_v3_2026-06-29_tardis.jsonl", line: 1,
        trap: "v3 renames everything: `markprice@…` has `px` as a string",
        events: [updates({ venueMarketId: "PERP_ETH_USDT", fields: { markPrice: 1622.9 }, venueTime: 1782770880000 })],
      },
      {
        file: "markprice_estfundingrate_v3_2026-06-29_tardis.jsonl", line: 2,
        trap: "v3 `estfundingrate@…`: `r` a string, `ft` the next funding time; the estimate is both rate and forecast",
        events: [updates({ venueMarketId: "PERP_ETH_USDT", fields: { fundingRate: 0.00001181, predictedFundingRate: 0.00001181, nextFundingAt: 1782777600000 }, venueTime: 1782770939000 })],
      },
      {
        file: "markprice_estfundingrate_legacy_2023-01-23_tardis.jsonl", line: 2,
        trap: "legacy `fundingRate` is a number (`7.82e-06`) and `fundingTs` has ms jitter",
        events: [updates({ venueMarketId: "PERP_BTC_USDT", fields: { fundingRate: 7.82e-6, predictedFundingRate: 7.82e-6, nextFundingAt: 1674435600005 }, venueTime: 1674432059002 })],
      },
      { file: "v3_frames_2026-09-23_observatory.jsonl", line: 3, events: [{ kind: "heartbeat" }] },
      { file: "v3_frames_2026-09-23_observatory.jsonl", line: 4, trap: "an unknown topic is acknowledged with `data: []`", events: [{ kind: "ack" }] },
    ],
    limits: {
      markets: 600,
      ids: symbols("PERP_COIN", "_USDT"),
      topicsOf: (frame) => parse(frame).params as string[],
      topicsFor: (ids) => ids.flatMap((id) => [`markprice@${id}`, `estfundingrate@${id}`]),
      sockets: 12,
      marketsPerSocket: 50,
      argsPerFrame: 10,
    },
  },
  {
    venue: "grvt",
    fixture: "DOC: GRVT's documented `v1.ticker.s` subscribe answer, feed and error (api-spec); no recording exists.",
    files: ["v1.ticker.s_docs-example.jsonl"],
    errorLines: ["v1.ticker.s_docs-example.jsonl:3"],
    plan: {
      markets: ["BTC_USDT_Perp", "ETH_USDT_Perp"],
      sockets: [{ url: "wss://market-data.grvt.io/ws/full", subscribe: [json({ jsonrpc: "2.0", method: "subscribe", params: { stream: "v1.ticker.s", selectors: ["BTC_USDT_Perp@500", "ETH_USDT_Perp@500"] }, id: 1 })] }],
    },
    keepalive: { frame: "protocol-ping", everyMs: 30_000 },
    stallAfterMs: 5_000,
    frames: [
      { file: "v1.ticker.s_docs-example.jsonl", line: 1, events: [{ kind: "ack" }] },
      {
        file: "v1.ticker.s_docs-example.jsonl", line: 2,
        trap: "`funding_rate` is in percentage points (0.0003 % = 3e-6); times are nanosecond strings",
        events: [updates({ venueMarketId: "BTC_USDT_Perp", fields: { fundingRate: 0.000003, nextFundingAt: 1697788800000, markPrice: 65038.01, indexPrice: 65038.01 }, venueTime: 1697788800000 })],
      },
      {
        frame: '{"stream":"v1.ticker.d","selector":"ETH_USDT_Perp@500","sequence_number":"2","feed":{"instrument":"ETH_USDT_Perp","funding_rate":"","mark_price":"2300.5"}}',
        trap: "SYNTHETIC in GRVT's documented field semantics: `\"\"` sets a field to null; a field left out is unchanged",
        events: [updates({ venueMarketId: "ETH_USDT_Perp", fields: { fundingRate: null, markPrice: 2300.5 }, venueTime: null })],
      },
    ],
    limits: {
      markets: 600,
      ids: symbols("COIN", "_USDT_Perp"),
      topicsOf: (frame) => (parse(frame).params as { selectors: string[] }).selectors,
      topicsFor: (ids) => ids.map((id) => `${id}@500`),
      sockets: 1,
      argsPerFrame: 50,
    },
  },
  {
    venue: "backpack",
    fixture: "DOC: the `markPrice` frame and refusals the observatory captured on 2026-09-23; no recording exists.",
    files: ["markPrice_2026-09-23_observatory.jsonl"],
    errorLines: ["markPrice_2026-09-23_observatory.jsonl:2", "markPrice_2026-09-23_observatory.jsonl:3"],
    plan: {
      markets: ["BTC_USDC_PERP", "ETH_USDC_PERP", "AAPL.US_USDC_PERP"],
      sockets: [{ url: "wss://ws.backpack.exchange", subscribe: [json({ method: "SUBSCRIBE", params: ["markPrice.BTC_USDC_PERP", "markPrice.ETH_USDC_PERP", "markPrice.AAPL.US_USDC_PERP"] })] }],
    },
    stallAfterMs: 5_000,
    frames: [
      {
        file: "markPrice_2026-09-23_observatory.jsonl", line: 1,
        trap: "`E`/`T` are microseconds, `n` is ms; a symbol may hold a dot (`AAPL.US_USDC_PERP`)",
        events: [updates({ venueMarketId: "AAPL.US_USDC_PERP", fields: { fundingRate: 0.00000625, nextFundingAt: 1790136000000, markPrice: 340.43, indexPrice: 340.52 }, venueTime: 1790134357846 })],
      },
    ],
    limits: {
      markets: 600,
      ids: symbols("COIN", "_USDC_PERP"),
      topicsOf: (frame) => parse(frame).params as string[],
      topicsFor: (ids) => ids.map((id) => `markPrice.${id}`),
      sockets: 6,
      marketsPerSocket: 100,
      argsPerFrame: 50,
    },
  },
  {
    venue: "bitmex",
    fixture: "REAL: tardis `instrument` messages (2019) and crypto-msg-parser `funding` partials (2021-2022); DOC: a full XBTUSD `instrument` partial and updates quoted by a public connector's tests.",
    files: ["instrument_XBTUSD_2021-12-18_mst-gateway.jsonl", "instrument_2019-06-01_tardis.jsonl", "funding_table_2021-2022_cmp.jsonl"],
    plan: { markets: ["XBTUSDT", "ETHUSDT"], sockets: [{ url: "wss://ws.bitmex.com/realtime", subscribe: [json({ op: "subscribe", args: ["instrument"] })] }] },
    keepalive: { frame: "ping", everyMs: 10_000 },
    stallAfterMs: 30_000,
    frames: [
      {
        file: "instrument_XBTUSD_2021-12-18_mst-gateway.jsonl", line: 1,
        trap: "the `partial` row states every field; `fundingTimestamp` and `timestamp` are ISO",
        events: [
          updates({
            venueMarketId: "XBTUSD",
            fields: { fundingRate: 0.0001, predictedFundingRate: 0.0001, nextFundingAt: iso("2021-12-18T20:00:00.000Z"), markPrice: 46704.01, indexPrice: 46703.96 },
            venueTime: iso("2021-12-18T19:55:00.000Z"),
          }),
        ],
      },
      { file: "instrument_XBTUSD_2021-12-18_mst-gateway.jsonl", line: 2, trap: "an `update` with `lastPrice` alone changes no field the service reads", events: [{ kind: "heartbeat" }] },
      {
        file: "instrument_XBTUSD_2021-12-18_mst-gateway.jsonl", line: 3,
        trap: "an `update` carries only the fields that changed: absent ones stay absent",
        events: [updates({ venueMarketId: "XBTUSD", fields: { markPrice: 46599.19, indexPrice: 46594.56 }, venueTime: iso("2021-12-18T20:03:05.000Z") })],
      },
      {
        file: "instrument_2019-06-01_tardis.jsonl", line: 2,
        trap: "dated futures state `fundingRate: null`: the venue's none, not an absent field",
        events: [
          updates(
            { venueMarketId: "ETHM19", fields: { fundingRate: null, predictedFundingRate: null, nextFundingAt: null, markPrice: 0.03162, indexPrice: 0.03131 }, venueTime: iso("2019-05-31T23:59:30.000Z") },
            { venueMarketId: "LTCM19", fields: { fundingRate: null, predictedFundingRate: null, nextFundingAt: null, markPrice: 0.013533, indexPrice: 0.013382 }, venueTime: iso("2019-05-31T23:59:55.000Z") },
          ),
        ],
      },
      { file: "instrument_2019-06-01_tardis.jsonl", line: 4, trap: "an `update` with `openInterest` only and no timestamp", events: [{ kind: "heartbeat" }] },
      { file: "funding_table_2021-2022_cmp.jsonl", line: 1, trap: "the `funding` table holds settlements, not the live rate", events: [{ kind: "heartbeat" }] },
      {
        frame: '{"table":"instrument","action":"update","data":[{"symbol":".BXBT","markPrice":46600.1,"timestamp":"2021-12-18T20:03:05.000Z"},{"symbol":"XBTUSDT","fundingRate":0.0001,"timestamp":"2021-12-18T20:03:05.000Z"}]}',
        trap: "SYNTHETIC in the table's form: index symbols (`.BXBT`) share the table and are no market",
        events: [updates({ venueMarketId: "XBTUSDT", fields: { fundingRate: 0.0001 }, venueTime: iso("2021-12-18T20:03:05.000Z") })],
      },
      { frame: "pong", trap: "BitMEX answers a text `ping` with a text `pong`", events: [{ kind: "heartbeat" }] },
      {
        frame: '{"success":true,"subscribe":"instrument","request":{"op":"subscribe","args":["instrument"]}}',
        trap: "SYNTHETIC in BitMEX's documented form: the subscription answer",
        events: [{ kind: "ack" }],
      },
    ],
    limits: allMarkets("instrument", (frame) => parse(frame).args as string[]),
  },
];
