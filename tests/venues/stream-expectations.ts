import { HIP3_VENUE_IDS, type Hip3VenueId } from "@/lib/market/model/hip3-venues";
import type { VenueId } from "@/lib/market/model/types";
import type { StreamEvent, StreamSocketPlan, StreamUpdate } from "@/lib/market/venues/streams/stream-protocol";
import { marketSummaryFrame, mantissa, perpetualSummary, SBE_NULL, sbeHeader } from "@/tests/fixtures/streams/paradex/sbe-frames";

/*
 * What every stream protocol must make of its venue's recorded or documented frames, one row a
 * venue (the connectors' VENUE_EXPECTATIONS, for sockets). stream-contract.test.ts decodes every
 * line of each row's files (and replays it as a binary frame, gzipped where the venue compresses),
 * compares the chosen frames' events, checks the subscribe plan for a few markets and the venue's
 * limits for many. The files live in tests/fixtures/streams/<venue>/, each listed with its source
 * in the SOURCES.md beside it (REAL recordings, DOC examples, frames BUILT from captures). A
 * frame's `trap` names the venue trap it shows (as the shared fixtures' FACTS.md names it), or says
 * SYNTHETIC where the frame is written here.
 */

export interface FrameExpectation {
  /** A fixture file of the row and a 1-based line, or a frame written here (labelled SYNTHETIC in `trap`). */
  file?: string;
  line?: number;
  frame?: string | Buffer;
  /** The events, exactly. */
  events: StreamEvent[];
  /** The FACTS.md trap the frame shows, or why the frame is here. */
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
  /** The directory of the row's files under tests/fixtures/streams, where not the venue's id. */
  fixtureDir?: string;
  /** What the files are: REAL, DOC or BUILT, as their SOURCES.md rows say. */
  fixture: string;
  files: readonly string[];
  /** The venue sends gzip binary frames: every line is also replayed gzipped. */
  gzip?: boolean;
  /**
   * `.hex` files of binary frames, one a line, where the venue's channel data is binary (Paradex's
   * SBE); its text lines are then its control plane and are not replayed as binary.
   */
  binaryFiles?: readonly string[];
  /** `file:line` of lines that are documented venue errors: only they may decode to an error event. */
  errorLines?: readonly string[];
  /** `file:line` of lines that decode to no event at all (a message that changes nothing this service reads). */
  silentLines?: readonly string[];
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
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

const parse = (frame: string) => JSON.parse(frame) as Record<string, unknown>;
const symbols = (prefix: string, suffix: string) => (count: number) => Array.from({ length: count }, (_, i) => `${prefix}${i}${suffix}`);

/** An all-markets channel: any number of markets is one socket with one subscription. */
function allMarkets(topic: string, topicsOf: (frame: string) => string[]): LimitExpectation {
  return { markets: 600, ids: symbols("M", ""), topicsOf, topicsFor: () => [topic], sockets: 1 };
}

const PARADEX_JSON_SUMMARY =
  '{"jsonrpc":"2.0","method":"subscription","params":{"channel":"markets_summary","data":{"symbol":"ORDI-USD-PERP","mark_price":"49.80885481","funding_rate":"0.03919997509811"}}}';
const BINANCE_SUBSCRIBE = '{"method":"SUBSCRIBE","params":["!markPrice@arr@1s"],"id":1}';
const KUCOIN_BULLET = "https://api-futures.kucoin.com/api/v1/bullet-public";
const kucoinSymbols = (frame: string) => String(parse(frame).topic).replace("/contract/instrument:", "").split(",");

export const STREAM_EXPECTATIONS: readonly StreamRow[] = [
  {
    venue: "binance",
    fixture: "REAL: crypto-msg-parser (2021) and tardis (2019-2021) markPriceUpdate messages, single-symbol and all-market, USDⓈ-M and COIN-M.",
    files: ["markPriceUpdate_2019-2021_tardis.jsonl", "markPriceUpdate_2021-04-01_cmp.jsonl"],
    plan: {
      markets: ["BTCUSDT", "ETHUSDT", "1000PEPEUSDT"],
      sockets: [{ url: "wss://fstream.binance.com/market/ws", subscribe: [BINANCE_SUBSCRIBE] }],
    },
    stallAfterMs: 5_000,
    maxLifetimeMs: DAY,
    frames: [
      {
        file: "markPriceUpdate_2019-2021_tardis.jsonl", line: 1,
        trap: "2019 messages have no `i` and no `P`: no index, not a null one",
        events: [updates({ venueMarketId: "BTCUSDT", fields: { markPrice: 8291.34697815, fundingRate: 0.0001, predictedFundingRate: 0.0001, nextFundingAt: 1569916800000 }, venueTime: 1569888003001 })],
      },
      {
        file: "markPriceUpdate_2019-2021_tardis.jsonl", line: 3,
        trap: "on delivery contracts `T` is 0 and `r` \"0.00000000\": no funding, not a settlement in 1970",
        events: [updates({ venueMarketId: "BTCBUSD_210129", fields: { markPrice: 31799.2773, indexPrice: 31307.034, fundingRate: null, predictedFundingRate: null, nextFundingAt: null }, venueTime: 1609830121004 })],
      },
      {
        file: "markPriceUpdate_2021-04-01_cmp.jsonl", line: 4,
        trap: "`!markPrice@arr` puts an array in `data`",
        events: [
          updates(
            { venueMarketId: "BTCUSDT", fields: { markPrice: 59022.53514719, indexPrice: 58936.68384, fundingRate: 0.00058959, predictedFundingRate: 0.00058959, nextFundingAt: 1617321600000 }, venueTime: 1617309024002 },
            { venueMarketId: "ETHUSDT", fields: { markPrice: 1981.1570442, indexPrice: 1978.08197502, fundingRate: 0.00059142, predictedFundingRate: 0.00059142, nextFundingAt: 1617321600000 }, venueTime: 1617309024002 },
          ),
        ],
      },
      {
        frame: '[{"e":"markPriceUpdate","E":1,"s":"BTCUSD_PERP","p":"1","r":"0.0001","T":2,"st":2},{"e":"markPriceUpdate","E":1,"s":"BTCUSDT","p":"2","i":"3","r":"0.0002","T":2,"st":1}]',
        trap: "SYNTHETIC: since the USDⓈ-M/COIN-M merge an all-market array holds COIN-M rows (`st: 2`), which are skipped",
        events: [updates({ venueMarketId: "BTCUSDT", fields: { markPrice: 2, indexPrice: 3, fundingRate: 0.0002, predictedFundingRate: 0.0002, nextFundingAt: 2 }, venueTime: 1 })],
      },
      { frame: '{"result":null,"id":1}', trap: "SYNTHETIC in Binance's documented form: the SUBSCRIBE answer", events: [{ kind: "ack" }] },
    ],
    limits: allMarkets("!markPrice@arr@1s", (frame) => parse(frame).params as string[]),
  },
  {
    venue: "aster",
    fixture: "DOC: Aster's documented subscribe answer and mark-price payloads (no recording exists).",
    files: ["markPrice_asterdex-docs.jsonl"],
    plan: { markets: ["BTCUSDT", "ETHUSDT"], sockets: [{ url: "wss://fstream.asterdex.com/ws", subscribe: [BINANCE_SUBSCRIBE] }] },
    stallAfterMs: 5_000,
    maxLifetimeMs: DAY,
    frames: [
      { file: "markPrice_asterdex-docs.jsonl", line: 1, events: [{ kind: "ack" }] },
      {
        file: "markPrice_asterdex-docs.jsonl", line: 2,
        trap: "the raw `/ws` all-market stream is a bare array",
        events: [updates({ venueMarketId: "BTCUSDT", fields: { markPrice: 11185.87786614, indexPrice: 11784.62659091, fundingRate: 0.0003, predictedFundingRate: 0.0003, nextFundingAt: 1562306400000 }, venueTime: 1562305380000 })],
      },
    ],
    limits: allMarkets("!markPrice@arr@1s", (frame) => parse(frame).params as string[]),
  },
  {
    venue: "bybit",
    fixture: "REAL: tardis v5 `tickers` snapshot and delta messages (2023-04-05).",
    files: ["tickers_v5_2023-04-05_tardis.jsonl"],
    silentLines: ["tickers_v5_2023-04-05_tardis.jsonl:4"],
    plan: {
      markets: ["BTCUSDT", "ETHUSDT", "1000PEPEUSDT"],
      sockets: [{ url: "wss://stream.bybit.com/v5/public/linear", subscribe: ['{"op":"subscribe","args":["tickers.BTCUSDT","tickers.ETHUSDT","tickers.1000PEPEUSDT"]}'] }],
    },
    keepalive: { frame: '{"op":"ping"}', everyMs: 20_000 },
    stallAfterMs: 10_000,
    frames: [
      {
        file: "tickers_v5_2023-04-05_tardis.jsonl", line: 1,
        events: [updates({ venueMarketId: "BTCUSD", fields: { fundingRate: 0.0001, nextFundingAt: 1680681600000, markPrice: 28560, indexPrice: 28566.94 }, venueTime: 1680673822577 })],
      },
      {
        file: "tickers_v5_2023-04-05_tardis.jsonl", line: 2,
        trap: "a delta carries only the fields that changed: the rate, and no price (absent, not null)",
        events: [updates({ venueMarketId: "BTCUSD", fields: { fundingRate: 0.0001 }, venueTime: 1680673822776 })],
      },
      {
        file: "tickers_v5_2023-04-05_tardis.jsonl", line: 3,
        trap: "on dated futures `fundingRate` and `nextFundingTime` are the empty string: the venue's \"none\"",
        events: [updates({ venueMarketId: "BTCUSDU23", fields: { fundingRate: null, nextFundingAt: null, markPrice: 29023.6, indexPrice: 28566.94 }, venueTime: 1680673822099 })],
      },
      {
        file: "tickers_v5_2023-04-05_tardis.jsonl", line: 4,
        trap: "a delta of book and basis fields only says nothing of funding or prices: no update",
        events: [],
      },
      {
        frame: '{"topic":"tickers.BTCUSDT","type":"delta","data":{"symbol":"BTCUSDT","markPrice":"n/a","indexPrice":"28562.30"},"cs":1,"ts":1680673822900}',
        trap: "SYNTHETIC: a value that is not a number is left out and reported; the rest of the frame stands",
        events: [
          updates({ venueMarketId: "BTCUSDT", fields: { indexPrice: 28562.3 }, venueTime: 1680673822900 }),
          { kind: "error", message: 'unreadable values: BTCUSDT markPrice: "n/a"' },
        ],
      },
      {
        frame: '{"success":true,"ret_msg":"pong","conn_id":"c1","op":"ping"}',
        trap: "SYNTHETIC in Bybit's documented form: the answer to our ping",
        events: [{ kind: "heartbeat" }],
      },
      {
        frame: '{"success":false,"ret_msg":"error:handler not found,topic:tickers.NOPE","conn_id":"c1","op":"subscribe"}',
        trap: "SYNTHETIC in Bybit's documented form: a refused subscription",
        events: [{ kind: "error", message: "subscribe refused: error:handler not found,topic:tickers.NOPE" }],
      },
    ],
    limits: {
      markets: 600,
      ids: symbols("COIN", "USDT"),
      topicsOf: (frame) => parse(frame).args as string[],
      topicsFor: (ids) => ids.map((id) => `tickers.${id}`),
      sockets: 3,
      marketsPerSocket: 200,
      frameBytes: 21_000,
    },
  },
  {
    venue: "okx",
    fixture: "REAL: crypto-msg-parser and tardis `funding-rate` (2021, 2022, 2026 X-Perp) and `mark-price` (2021) messages.",
    files: ["funding-rate_2022-03-03_cmp.jsonl", "funding-rate_mark-price_v5_2021-12_tardis.jsonl", "funding-rate_XPERP_2026-08-04_tardis.jsonl"],
    plan: {
      markets: ["BTC-USDT-SWAP", "ETH-USDT-SWAP"],
      sockets: [
        {
          url: "wss://ws.okx.com:8443/ws/v5/public",
          subscribe: [
            '{"op":"subscribe","args":[{"channel":"funding-rate","instId":"BTC-USDT-SWAP"},{"channel":"mark-price","instId":"BTC-USDT-SWAP"},' +
              '{"channel":"funding-rate","instId":"ETH-USDT-SWAP"},{"channel":"mark-price","instId":"ETH-USDT-SWAP"}]}',
          ],
        },
      ],
    },
    keepalive: { frame: "ping", everyMs: 20_000 },
    stallAfterMs: 30_000,
    frames: [
      {
        file: "funding-rate_mark-price_v5_2021-12_tardis.jsonl", line: 1,
        events: [updates({ venueMarketId: "WNCG-USDT-SWAP", fields: { fundingRate: 0.00048105, predictedFundingRate: 0.00114, nextFundingAt: 1640131200000 }, venueTime: null })],
      },
      {
        file: "funding-rate_mark-price_v5_2021-12_tardis.jsonl", line: 2,
        trap: "`mark-price` is a separate channel (`markPx`, `ts` a string of ms)",
        events: [updates({ venueMarketId: "WNCG-USDT-SWAP", fields: { markPrice: 2.1729 }, venueTime: 1640131259180 })],
      },
      {
        file: "funding-rate_mark-price_v5_2021-12_tardis.jsonl", line: 3,
        trap: "a message with no `fundingRate` key at all: the rate is absent, not null",
        events: [updates({ venueMarketId: "SOS-USDT-SWAP", fields: { predictedFundingRate: 0.0003, nextFundingAt: 1640851200000 }, venueTime: null })],
      },
      {
        file: "funding-rate_XPERP_2026-08-04_tardis.jsonl", line: 1,
        trap: "`fundingTime` is the upcoming settlement; `nextFundingRate` \"\" under `current_period`; an X-Perp is `instType: FUTURES`",
        events: [updates({ venueMarketId: "BTC-USD_UM_XPERP-310404", fields: { fundingRate: -0.0004270396398519, predictedFundingRate: null, nextFundingAt: 1785888000000 }, venueTime: 1785870855692 })],
      },
      { frame: "pong", trap: "SYNTHETIC in OKX's documented form: the answer to the text `ping` is not JSON", events: [{ kind: "heartbeat" }] },
      {
        frame: '{"event":"error","code":"60012","msg":"Invalid request: {\\"op\\": \\"subscribe\\"}","connId":"a4d3ae55"}',
        trap: "SYNTHETIC in OKX's documented form: an error event",
        events: [{ kind: "error", message: 'venue error 60012: Invalid request: {"op": "subscribe"}' }],
      },
    ],
    limits: {
      markets: 600,
      ids: symbols("COIN", "-USDT-SWAP"),
      topicsOf: (frame) => (parse(frame).args as { channel: string; instId: string }[]).map((arg) => `${arg.channel}:${arg.instId}`),
      topicsFor: (ids) => ids.flatMap((id) => [`funding-rate:${id}`, `mark-price:${id}`]),
      sockets: 2,
      marketsPerSocket: 300,
      frameBytes: 64 * 1024,
    },
  },
  {
    venue: "bitget",
    fixture: "REAL: tardis v2 (2024) and v3/UTA (2026) `ticker` messages and acks; crypto-msg-parser and cryptofeed retired v1 `mc` tickers (2022).",
    files: ["ticker_v2_2024-10-31_tardis.jsonl", "ticker_v3-uta_2026-04-28_tardis.jsonl", "mix_v1_ticker_2022-06-02_cmp.jsonl", "mix_v1_ticker_sequence_2022-04-07_cryptofeed.jsonl"],
    plan: {
      markets: ["BTCUSDT", "BTCPERP"],
      sockets: [
        {
          url: "wss://ws.bitget.com/v2/ws/public",
          subscribe: ['{"op":"subscribe","args":[{"instType":"USDT-FUTURES","channel":"ticker","instId":"BTCUSDT"},{"instType":"USDC-FUTURES","channel":"ticker","instId":"BTCPERP"}]}'],
        },
      ],
    },
    keepalive: { frame: "ping", everyMs: 30_000 },
    stallAfterMs: 10_000,
    maxLifetimeMs: DAY,
    frames: [
      { file: "ticker_v2_2024-10-31_tardis.jsonl", line: 1, trap: "acks are `{\"event\":\"subscribe\",\"arg\":{…}}`", events: [{ kind: "ack" }] },
      {
        file: "ticker_v2_2024-10-31_tardis.jsonl", line: 2,
        trap: "`fundingRate` and `nextFundingTime` are strings; the row's `ts` is a string",
        events: [updates({ venueMarketId: "STORJUSDT", fields: { markPrice: 0.4705, indexPrice: 0.47080586, fundingRate: 0.0001, nextFundingAt: 1730361600000 }, venueTime: 1730332823155 })],
      },
      {
        file: "ticker_v2_2024-10-31_tardis.jsonl", line: 3,
        trap: "dated futures send `\"fundingRate\":\"0\"` and `\"nextFundingTime\":\"0\"`: no funding",
        events: [updates({ venueMarketId: "BTCUSDZ24", fields: { markPrice: 73731.8, indexPrice: 72327.926666, fundingRate: null, nextFundingAt: null }, venueTime: 1730332823217 })],
      },
      {
        file: "ticker_v3-uta_2026-04-28_tardis.jsonl", line: 1,
        trap: "v3/UTA: `arg.topic` and `arg.symbol`, no row id or row time",
        events: [updates({ venueMarketId: "BTCUSDT", fields: { markPrice: 76631.3, indexPrice: 76671.4381686055379793, fundingRate: -0.00003, nextFundingAt: 1777363200000 }, venueTime: 1777358880084 })],
      },
      {
        file: "mix_v1_ticker_2022-06-02_cmp.jsonl", line: 2,
        trap: "retired v1 mix: the rate is `capitalRate`, times are numbers",
        events: [updates({ venueMarketId: "BTCUSDT", fields: { markPrice: 29906.42, indexPrice: 29928.32, fundingRate: 0.0001, nextFundingAt: 1654182000000 }, venueTime: 1654160847314 })],
      },
      { frame: "pong", trap: "SYNTHETIC in Bitget's documented form: the answer to `ping` is bare text", events: [{ kind: "heartbeat" }] },
    ],
    limits: {
      markets: 600,
      // Both product lines, as the connector lists them.
      ids: (count) => Array.from({ length: count }, (_, i) => (i % 3 === 0 ? `COIN${i}PERP` : `COIN${i}USDT`)),
      topicsOf: (frame) => (parse(frame).args as { instType: string; instId: string }[]).map((arg) => `${arg.instType}:${arg.instId}`),
      topicsFor: (ids) => ids.map((id) => `${id.endsWith("PERP") ? "USDC-FUTURES" : "USDT-FUTURES"}:${id}`),
      sockets: 13,
      marketsPerSocket: 49,
      frameBytes: 4096,
    },
  },
  {
    venue: "gate",
    fixture: "REAL: tardis (2020-2023, with the subscribe ack) and crypto-msg-parser (2022) `futures.tickers` messages.",
    files: ["futures.tickers_2020-2023_tardis.jsonl", "futures.tickers_2022-06-02_cmp.jsonl"],
    plan: {
      markets: ["BTC_USDT", "ETH_USDT"],
      sockets: [{ url: "wss://fx-ws.gateio.ws/v4/ws/usdt", subscribe: ['{"channel":"futures.tickers","event":"subscribe","payload":["BTC_USDT","ETH_USDT"]}'] }],
    },
    keepalive: { frame: '{"channel":"futures.ping"}', everyMs: 10_000 },
    stallAfterMs: 30_000,
    frames: [
      { file: "futures.tickers_2020-2023_tardis.jsonl", line: 2, trap: "the subscribe ack", events: [{ kind: "ack" }] },
      {
        file: "futures.tickers_2020-2023_tardis.jsonl", line: 3,
        trap: "`result` as a list holding a list",
        events: [updates({ venueMarketId: "BSV_USDT", fields: { fundingRate: 0.000962, predictedFundingRate: 0.000216, markPrice: 244.78, indexPrice: 244.75 }, venueTime: 1617952183000 })],
      },
      {
        file: "futures.tickers_2020-2023_tardis.jsonl", line: 4,
        trap: "`result` as a bare object; `error` absent; `time` in seconds",
        events: [updates({ venueMarketId: "ETC_USD", fields: { fundingRate: 0.0001, predictedFundingRate: 0.0001, markPrice: 26.929, indexPrice: 26.9291 }, venueTime: 1647501206000 })],
      },
      {
        file: "futures.tickers_2020-2023_tardis.jsonl", line: 5,
        trap: "later messages add `time_ms`",
        events: [updates({ venueMarketId: "BTC_USDT", fields: { fundingRate: 0.0001, predictedFundingRate: 0.0001, markPrice: 23175.64, indexPrice: 23173.35 }, venueTime: 1677629168840 })],
      },
      {
        file: "futures.tickers_2022-06-02_cmp.jsonl", line: 1,
        trap: "a dated future sends no funding keys: prices only",
        events: [updates({ venueMarketId: "BTC_USD_20220624", fields: { markPrice: 29955.64, indexPrice: 29975.14 }, venueTime: 1654162230000 })],
      },
      { frame: '{"time":1,"channel":"futures.pong","event":"","error":null,"result":null}', trap: "SYNTHETIC in Gate's documented form: the pong", events: [{ kind: "heartbeat" }] },
    ],
    limits: {
      markets: 600,
      ids: symbols("COIN", "_USDT"),
      topicsOf: (frame) => parse(frame).payload as string[],
      topicsFor: (ids) => [...ids],
      sockets: 2,
      marketsPerSocket: 300,
      argsPerFrame: 100,
    },
  },
  {
    venue: "hyperliquid",
    fixture:
      "REAL: tardis `activeAssetCtx`/`activeSpotAssetCtx` (MOODENG, @2); the arbitrage-observatory probe's captured `activeAssetCtx` (BTC), " +
      "pong and error frames (2026-09-24). BUILT: the `activeAssetCtx` ack, from the captured ack's shape.",
    files: ["activeAssetCtx_MOODENG_tardis.jsonl", "activeAssetCtx_BTC_built_from_probe.jsonl"],
    silentLines: ["activeAssetCtx_MOODENG_tardis.jsonl:2"],
    errorLines: ["activeAssetCtx_BTC_built_from_probe.jsonl:4"],
    // The markets are named by coin (the protocol's streamKey): one subscribe message a coin.
    plan: {
      markets: ["BTC", "kPEPE", "xyz:SP500"],
      sockets: [
        {
          url: "wss://api.hyperliquid.xyz/ws",
          subscribe: [
            '{"method":"subscribe","subscription":{"type":"activeAssetCtx","coin":"BTC"}}',
            '{"method":"subscribe","subscription":{"type":"activeAssetCtx","coin":"kPEPE"}}',
            '{"method":"subscribe","subscription":{"type":"activeAssetCtx","coin":"xyz:SP500"}}',
          ],
        },
      ],
    },
    keepalive: { frame: '{"method":"ping"}', everyMs: 30_000 },
    stallAfterMs: 10_000,
    frames: [
      {
        file: "activeAssetCtx_MOODENG_tardis.jsonl", line: 1,
        trap: "no timestamp; `funding` is the hourly rate as a string; keyed by coin name, not the connector's market id (the asset index)",
        events: [updates({ venueMarketId: "MOODENG", fields: { fundingRate: 0.00004863, markPrice: 0.19963, indexPrice: 0.1995 }, venueTime: null })],
      },
      { file: "activeAssetCtx_MOODENG_tardis.jsonl", line: 2, trap: "spot coins (`@2`) arrive on `activeSpotAssetCtx` with no funding", events: [] },
      { file: "activeAssetCtx_BTC_built_from_probe.jsonl", line: 1, events: [{ kind: "ack" }] },
      {
        file: "activeAssetCtx_BTC_built_from_probe.jsonl", line: 2,
        events: [updates({ venueMarketId: "BTC", fields: { fundingRate: 0.0000018952, markPrice: 84148, indexPrice: 84198 }, venueTime: null })],
      },
      { file: "activeAssetCtx_BTC_built_from_probe.jsonl", line: 3, events: [{ kind: "heartbeat" }] },
      {
        frame: json({ channel: "activeAssetCtx", data: { coin: "xyz:SP500", ctx: { funding: "0.0000125", oraclePx: "7673.3", markPx: "7673.4", midPx: "7673.35" } } }),
        trap: "SYNTHETIC: a HIP-3 coin keeps its dex prefix, as subscribed",
        events: [updates({ venueMarketId: "xyz:SP500", fields: { fundingRate: 0.0000125, markPrice: 7673.4, indexPrice: 7673.3 }, venueTime: null })],
      },
      {
        frame: json({ channel: "activeAssetCtx", data: { coin: "BTC", ctx: { funding: "n/a", oraclePx: "84198.0", markPx: "84148.0" } } }),
        trap: "SYNTHETIC: a garbled funding is left out and reported, the prices kept",
        events: [updates({ venueMarketId: "BTC", fields: { markPrice: 84148, indexPrice: 84198 }, venueTime: null }), { kind: "error", message: 'unreadable values: BTC fundingRate: "n/a"' }],
      },
      {
        frame: json({ channel: "activeAssetCtx", data: { ctx: { funding: "0.0000125", markPx: "1.0" } } }),
        trap: "SYNTHETIC: a context without its coin cannot be placed",
        events: [{ kind: "error", message: "activeAssetCtx without a coin and its ctx" }],
      },
    ],
    // Its share of the 1000 subscriptions an IP may hold, the rest the HIP-3 dexes' (100 each).
    limits: {
      markets: 300,
      ids: symbols("C", ""),
      topicsOf: activeAssetCtxTopics,
      topicsFor: (ids) => ids.map((coin) => `activeAssetCtx:${coin}`),
      sockets: 2,
      marketsPerSocket: 250,
      argsPerFrame: 1,
    },
  },
  ...HIP3_VENUE_IDS.map((venue) => hip3StreamRow(venue)),
  {
    venue: "dydx",
    fixture: "REAL: tardis `v4_markets` subscribed snapshot, `trading` and `oraclePrices` messages (2024-08-23).",
    files: ["v4_markets_2024-08-23_tardis.jsonl"],
    silentLines: ["v4_markets_2024-08-23_tardis.jsonl:2"],
    plan: { markets: ["BTC-USD", "ETH-USD"], sockets: [{ url: "wss://indexer.dydx.trade/v4/ws", subscribe: ['{"type":"subscribe","channel":"v4_markets"}'] }] },
    stallAfterMs: 60_000,
    frames: [
      {
        file: "v4_markets_2024-08-23_tardis.jsonl", line: 1,
        trap: "`subscribed` carries every market's full state; `nextFundingRate` is a 20-decimal string",
        events: [
          { kind: "ack" },
          updates(
            { venueMarketId: "BTC-USD", fields: { fundingRate: 0.00001351666666666667, predictedFundingRate: 0.00001351666666666667, markPrice: 60387.51779, indexPrice: 60387.51779 }, venueTime: null },
            { venueMarketId: "ETH-USD", fields: { fundingRate: 0.00001051666666666667, predictedFundingRate: 0.00001051666666666667, markPrice: 2623.2521, indexPrice: 2623.2521 }, venueTime: null },
          ),
        ],
      },
      { file: "v4_markets_2024-08-23_tardis.jsonl", line: 2, trap: "a `trading` partial of open interest only: nothing else changed", events: [] },
      {
        file: "v4_markets_2024-08-23_tardis.jsonl", line: 3,
        trap: "`oraclePrices`, with an ISO `effectiveAt`",
        events: [updates({ venueMarketId: "ETH-USD", fields: { markPrice: 2623.3521, indexPrice: 2623.3521 }, venueTime: Date.parse("2024-08-23T00:00:54.301Z") })],
      },
      {
        frame: '{"type":"channel_data","connection_id":"c","message_id":2,"channel":"v4_markets","version":"1.0.0","contents":{"trading":{"BTC-USD":{"id":"0","nextFundingRate":"0.00002"}}}}',
        trap: "SYNTHETIC `trading` partial with a new rate: only the rate (and the predicted rate it also is)",
        events: [updates({ venueMarketId: "BTC-USD", fields: { fundingRate: 0.00002, predictedFundingRate: 0.00002 }, venueTime: null })],
      },
    ],
    limits: allMarkets("v4_markets", (frame) => [String(parse(frame).channel)]),
  },
  {
    venue: "lighter",
    fixture: "REAL: tardis `market_stats:all` subscribed and update messages (2026-04-20).",
    files: ["market_stats_all_2026-04-20_tardis.jsonl"],
    plan: { markets: ["0", "1"], sockets: [{ url: "wss://mainnet.zklighter.elliot.ai/stream", subscribe: ['{"type":"subscribe","channel":"market_stats/all"}'] }] },
    keepalive: { frame: '{"type":"ping"}', everyMs: 60_000 },
    stallAfterMs: 30_000,
    frames: [
      {
        file: "market_stats_all_2026-04-20_tardis.jsonl", line: 1,
        trap: "rates in percent per hour (`\"0.0011\"` is 0.000011); `market_id` a string key; next settlement the next whole hour",
        events: [
          { kind: "ack" },
          updates(
            { venueMarketId: "0", fields: { fundingRate: 0.000011, markPrice: 2308.86, indexPrice: 2309.89, nextFundingAt: Date.UTC(2026, 3, 20, 15) }, venueTime: 1776694043429 },
            { venueMarketId: "1", fields: { fundingRate: 0.000012, markPrice: 75241.1, indexPrice: 75281.9, nextFundingAt: Date.UTC(2026, 3, 20, 15) }, venueTime: 1776694043429 },
          ),
        ],
      },
      { frame: '{"type":"ping"}', trap: "SYNTHETIC in Lighter's form: a venue ping gets a pong", events: [{ kind: "reply", frame: '{"type":"pong"}' }] },
    ],
    limits: { ...allMarkets("market_stats/all", (frame) => [String(parse(frame).channel)]), ids: symbols("", "") },
  },
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
  {
    venue: "paradex",
    fixture: "DOC: Paradex's documented subscribe answer and error; BUILT: SBE frames from paradex-py's schema and tests (no recording exists).",
    files: ["control_paradex-docs.jsonl"],
    binaryFiles: ["markets_summary_paradex-py-tests.hex"],
    errorLines: ["control_paradex-docs.jsonl:2", "markets_summary_paradex-py-tests.hex:1", "markets_summary_paradex-py-tests.hex:3"],
    plan: {
      markets: ["BTC-USD-PERP", "ETH-USD-PERP"],
      sockets: [{ url: "wss://ws.api.prod.paradex.trade/v1?sbeSchemaId=1&sbeSchemaVersion=1", subscribe: ['{"jsonrpc":"2.0","method":"subscribe","params":{"channel":"markets_summary.ALL"},"id":1}'] }],
    },
    stallAfterMs: 30_000,
    frames: [
      { file: "control_paradex-docs.jsonl", line: 1, trap: "the control plane stays JSON-RPC text: the subscribe answer", events: [{ kind: "ack" }] },
      { file: "control_paradex-docs.jsonl", line: 2, events: [{ kind: "error", message: "venue error -32601: method does not exist" }] },
      {
        file: "markets_summary_paradex-py-tests.hex", line: 2,
        trap: "fixed-point mantissas (exponent -8 off the wire), µs times; `fundingRatePrecise` null, so the 8-decimal `fundingRate`; `indexPrice` is `underlying_price`",
        events: [updates({ venueMarketId: "BTC-USD-PERP", fields: { fundingRate: 0.01, markPrice: 42000, indexPrice: 41990 }, venueTime: 1710000000000 })],
      },
      {
        file: "markets_summary_paradex-py-tests.hex", line: 1,
        trap: "paradex-py's test header says version 0: not the negotiated 1, never read in another layout",
        events: [{ kind: "error", message: "SBE schema 1:0, not the negotiated 1:1 (template 4)" }],
      },
      {
        file: "markets_summary_paradex-py-tests.hex", line: 3,
        trap: "a template of the schema this socket did not subscribe (FundingRateComparisonEvent)",
        events: [{ kind: "error", message: "SBE template 6 (FundingRateComparisonEvent) was not subscribed" }],
      },
      {
        frame: perpetualSummary("ETH-USD-PERP", { tsMicros: 1790000000123456n, mark: "2500.12345678", index: "2499.5", rate: "-0.000012345678" }),
        trap: "BUILT from the schema: the 12-decimal `fundingRatePrecise` wins over the 8-decimal `fundingRate` (-0.00001235); the rate is per the market's own period, unconverted",
        events: [updates({ venueMarketId: "ETH-USD-PERP", fields: { fundingRate: -0.000012345678, markPrice: 2500.12345678, indexPrice: 2499.5 }, venueTime: 1790000000123 })],
      },
      {
        frame: marketSummaryFrame("SOL-USD-PERP", { ts: 1790000000000000n, markPrice: mantissa("150.5"), indexPrice: SBE_NULL, fundingRate: SBE_NULL }),
        trap: "BUILT from the schema: the schema's null (INT64_MIN) is the venue saying none",
        events: [updates({ venueMarketId: "SOL-USD-PERP", fields: { fundingRate: null, markPrice: 150.5, indexPrice: null }, venueTime: 1790000000000 })],
      },
      {
        frame: Buffer.concat([sbeHeader({ blockLength: 16, templateId: 40 }), Buffer.alloc(16)]),
        trap: "BUILT from the schema: a HeartbeatEvent (idle connections) keeps the socket, no market",
        events: [{ kind: "heartbeat" }],
      },
      {
        frame: PARADEX_JSON_SUMMARY,
        trap: "SYNTHETIC from ccxt's quoted JSON payload: JSON channel data where SBE was negotiated is reported, not read",
        events: [{ kind: "error", message: `JSON channel payload where SBE was negotiated: ${PARADEX_JSON_SUMMARY}` }],
      },
    ],
    limits: allMarkets("markets_summary.ALL", (frame) => [String((parse(frame).params as Record<string, unknown>).channel)]),
  },
];

/** The (channel, coin) an `activeAssetCtx` subscribe frame asks for. */
function activeAssetCtxTopics(frame: string): string[] {
  const subscription = parse(frame).subscription as { type: string; coin: string };
  return [`${subscription.type}:${subscription.coin}`];
}

/**
 * A HIP-3 dex's row: Hyperliquid's `activeAssetCtx` for its coins (one file for every dex, BUILT from
 * recorded pieces: tests/fixtures/streams/hyperliquid-hip3/SOURCES.md), the rate also the forecast.
 */
function hip3StreamRow(venue: Hip3VenueId): StreamRow {
  const dex = venue.slice("hyperliquid:".length);
  return {
    venue,
    fixtureDir: "hyperliquid-hip3",
    fixture: "BUILT: the first dex's captured frame shapes with the DOC xyz:XYZ100 and the REAL hyna:BTC contexts; REAL: the pong.",
    files: ["activeAssetCtx_hip3_built.jsonl"],
    plan: {
      markets: [`${dex}:TSLA`, `${dex}:GOLD`],
      sockets: [
        {
          url: "wss://api.hyperliquid.xyz/ws",
          subscribe: [
            `{"method":"subscribe","subscription":{"type":"activeAssetCtx","coin":"${dex}:TSLA"}}`,
            `{"method":"subscribe","subscription":{"type":"activeAssetCtx","coin":"${dex}:GOLD"}}`,
          ],
        },
      ],
    },
    keepalive: { frame: '{"method":"ping"}', everyMs: 30_000 },
    stallAfterMs: 10_000,
    frames: [
      { file: "activeAssetCtx_hip3_built.jsonl", line: 1, events: [{ kind: "ack" }] },
      {
        file: "activeAssetCtx_hip3_built.jsonl", line: 2,
        trap: "a HIP-3 coin keeps its prefix, the market's venueMarketId; its `funding` is the rate and the forecast, as the connector reads it",
        events: [updates({ venueMarketId: "xyz:XYZ100", fields: { fundingRate: 0.0002110251, markPrice: 25451, indexPrice: 25372, predictedFundingRate: 0.0002110251 }, venueTime: null })],
      },
      {
        file: "activeAssetCtx_hip3_built.jsonl", line: 3,
        events: [updates({ venueMarketId: "hyna:BTC", fields: { fundingRate: 0.0000125, markPrice: 77595, indexPrice: 77608, predictedFundingRate: 0.0000125 }, venueTime: null })],
      },
      { file: "activeAssetCtx_hip3_built.jsonl", line: 4, events: [{ kind: "heartbeat" }] },
      {
        frame: json({ channel: "activeAssetCtx", data: { coin: `${dex}:GOLD`, ctx: { funding: "n/a", oraclePx: "4336.3", markPx: "4337.0" } } }),
        trap: "SYNTHETIC: a garbled funding is left out and reported, with no forecast made of it",
        events: [updates({ venueMarketId: `${dex}:GOLD`, fields: { markPrice: 4337, indexPrice: 4336.3 }, venueTime: null }), { kind: "error", message: `unreadable values: ${dex}:GOLD fundingRate: "n/a"` }],
      },
    ],
    // One socket a dex, at most 100 coins: seven dexes and the first dex's 300 make the IP's 1000.
    limits: {
      markets: 100,
      ids: (count) => Array.from({ length: count }, (_, i) => `${dex}:C${i}`),
      topicsOf: activeAssetCtxTopics,
      topicsFor: (ids) => ids.map((coin) => `activeAssetCtx:${coin}`),
      sockets: 1,
      marketsPerSocket: 100,
      argsPerFrame: 1,
    },
  };
}
