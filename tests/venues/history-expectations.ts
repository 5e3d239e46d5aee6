import type { HistoryMarket, VenueHistoryReader } from "@/lib/history/history-types";
import { asterHistory } from "@/lib/history/venues/aster";
import { backpackHistory } from "@/lib/history/venues/backpack";
import { binanceHistory } from "@/lib/history/venues/binance";
import { bingxHistory } from "@/lib/history/venues/bingx";
import { bitgetHistory } from "@/lib/history/venues/bitget";
import { bitmartHistory } from "@/lib/history/venues/bitmart";
import { bitmexHistory } from "@/lib/history/venues/bitmex";
import { bybitHistory } from "@/lib/history/venues/bybit";
import { coinexHistory } from "@/lib/history/venues/coinex";
import { deribitHistory } from "@/lib/history/venues/deribit";
import { dydxHistory } from "@/lib/history/venues/dydx";
import { extendedHistory } from "@/lib/history/venues/extended";
import { gateHistory } from "@/lib/history/venues/gate";
import { grvtHistory } from "@/lib/history/venues/grvt";
import { htxHistory } from "@/lib/history/venues/htx";
import { hyperliquidHistory } from "@/lib/history/venues/hyperliquid";
import { HIP3_HISTORY_READERS } from "@/lib/history/venues/hyperliquid-hip3";
import { kucoinfuturesHistory } from "@/lib/history/venues/kucoinfutures";
import { lighterHistory } from "@/lib/history/venues/lighter";
import { mexcHistory } from "@/lib/history/venues/mexc";
import { okxHistory } from "@/lib/history/venues/okx";
import { phemexHistory } from "@/lib/history/venues/phemex";
import { wooHistory } from "@/lib/history/venues/woo";
import { paradexHistory } from "@/lib/history/venues/paradex";
import { cryptocomHistory } from "@/lib/history/venues/cryptocom";
import { fixedIo, gateServer, htxServer, kucoinServer, mexcServer, type RecordingIo } from "@/tests/fixtures/history/history-servers";
import { paradexRows, paradexServer } from "@/tests/fixtures/history/paradex-server";
import { historyJson, longSeries } from "@/tests/fixtures/history/read-history-fixture";

/*
 * What every venue's history reader must make of one recorded page, one row a reading (the idea of
 * freqtrade's EXCHANGES table, as in venue-expectations.ts). history-contract.test.ts runs the same
 * assertions on every row: the request the reader makes, how many settlements it reads, the first
 * and last (by time) with their rates, the interval it states and where the walk goes next.
 * `fixture` says whether the page is REAL, DOC, BUILT from a recording, or a SCHEMA fixture whose
 * provenance its source leaves unstated (tests/fixtures/history/SOURCES.md).
 */

export interface HistoryRow {
  name: string;
  reader: VenueHistoryReader;
  fixture: string;
  market: HistoryMarket;
  range: { since: number; until: number };
  io: () => RecordingIo;
  /** Every request, `GET <url>` or `POST <url> <json body>`. */
  requests: readonly string[];
  count: number;
  first: { time: number; rate: number };
  last: { time: number; rate: number };
  /** The interval every settlement states (null: left to derive). */
  intervalHours: number | null;
  next: string | null;
}

/** 2026-08-27 00:00 UTC and the four 8 h boundaries after it: the recorded Paradex windows. */
const PARADEX_B0 = Date.UTC(2026, 7, 27);
const PARADEX_B4 = PARADEX_B0 + 32 * 3_600_000;
const PARADEX_URL = "https://api.prod.paradex.trade/v1/funding/data?market=BTC-USD-PERP";

const DECEMBER_2023 = { since: Date.UTC(2023, 11, 1), until: Date.UTC(2024, 0, 1) - 1 };

function market(exchange: string, symbol: string, venueMarketId: string): HistoryMarket {
  return { exchange, market: symbol, venueMarketId, base: symbol.split("/")[0] ?? "" };
}

export const HISTORY_EXPECTATIONS: readonly HistoryRow[] = [
  {
    name: "binance, 2 rows, ms jitter kept",
    reader: binanceHistory,
    fixture: "REAL binance/fundingRate_BTCUSDT_limit2_2026-08-16.json",
    market: market("binance", "BTC/USDT:USDT", "BTCUSDT"),
    range: { since: 1786752000000, until: 1786838400000 },
    io: () => fixedIo(historyJson("binance/fundingRate_BTCUSDT_limit2_2026-08-16.json")),
    requests: ["GET https://fapi.binance.com/fapi/v1/fundingRate?symbol=BTCUSDT&startTime=1786752000000&endTime=1786838400000&limit=1000"],
    count: 2,
    first: { time: 1786780800002, rate: 0.00006523 },
    last: { time: 1786809600000, rate: 0.00005311 },
    intervalHours: null,
    next: null,
  },
  {
    name: "aster, Binance's shape on its v3 path",
    reader: asterHistory,
    fixture: "DOC aster/fundingRate_BTCUSDT_docs-example.json",
    market: market("aster", "BTC/USDT:USDT", "BTCUSDT"),
    range: { since: 1570579200000, until: 1570665600000 },
    io: () => fixedIo(historyJson("aster/fundingRate_BTCUSDT_docs-example.json")),
    requests: ["GET https://fapi.asterdex.com/fapi/v3/fundingRate?symbol=BTCUSDT&startTime=1570579200000&endTime=1570665600000&limit=1000"],
    count: 2,
    first: { time: 1570608000000, rate: -0.0375 },
    last: { time: 1570636800000, rate: 0.0001 },
    intervalHours: null,
    next: null,
  },
  {
    name: "bybit, newest first, timestamps as strings",
    reader: bybitHistory,
    fixture: "REAL bybit/funding_history_linear_BTCUSDT_limit2_2026-08-16.json",
    market: market("bybit", "BTC/USDT:USDT", "BTCUSDT"),
    range: { since: 1786752000000, until: 1786838400000 },
    io: () => fixedIo(historyJson("bybit/funding_history_linear_BTCUSDT_limit2_2026-08-16.json")),
    requests: ["GET https://api.bybit.com/v5/market/funding/history?category=linear&symbol=BTCUSDT&endTime=1786838400000&limit=200"],
    count: 2,
    first: { time: 1786780800000, rate: 0.00004737 },
    last: { time: 1786809600000, rate: 0.00004403 },
    intervalHours: null,
    next: null,
  },
  {
    name: "okx, fields cut upstream: fundingRate read when realizedRate is absent",
    reader: okxHistory,
    fixture: "REAL okx/funding-rate-history_BTC-USDT-SWAP_limit2_2026-08-16_fields-cut-upstream.json",
    market: market("okx", "BTC/USDT:USDT", "BTC-USDT-SWAP"),
    range: { since: 1786752000000, until: 1786838400000 },
    io: () => fixedIo(historyJson("okx/funding-rate-history_BTC-USDT-SWAP_limit2_2026-08-16_fields-cut-upstream.json")),
    requests: ["GET https://www.okx.com/api/v5/public/funding-rate-history?instId=BTC-USDT-SWAP&after=1786838400001&limit=100"],
    count: 2,
    first: { time: 1786780800000, rate: 0.0000765914290582 },
    last: { time: 1786809600000, rate: 0.0000647375951599 },
    intervalHours: null,
    next: null,
  },
  {
    name: "okx, the charged realizedRate, not the predicted fundingRate",
    reader: okxHistory,
    fixture: "DOC okx/funding-rate-history_BTC-USD-SWAP_docs-example.json",
    market: market("okx", "BTC/USD:BTC", "BTC-USD-SWAP"),
    range: { since: 1703000000000, until: 1703100000000 },
    io: () => fixedIo(historyJson("okx/funding-rate-history_BTC-USD-SWAP_docs-example.json")),
    requests: ["GET https://www.okx.com/api/v5/public/funding-rate-history?instId=BTC-USD-SWAP&after=1703100000001&limit=100"],
    count: 2,
    first: { time: 1703030400000, rate: 0.0002279755647389 },
    last: { time: 1703059200000, rate: 0.0000746572360545 },
    intervalHours: null,
    next: null,
  },
  {
    name: "bitget, string fields, page 1",
    reader: bitgetHistory,
    fixture: "DOC bitget/history-fund-rate_BTCUSDT_docs-example.json",
    market: market("bitget", "BTC/USDT:USDT", "BTCUSDT"),
    range: { since: 1695600000000, until: 1695800000000 },
    io: () => fixedIo(historyJson("bitget/history-fund-rate_BTCUSDT_docs-example.json")),
    requests: ["GET https://api.bitget.com/api/v2/mix/market/history-fund-rate?symbol=BTCUSDT&productType=USDT-FUTURES&pageSize=100&pageNo=1"],
    count: 2,
    first: { time: 1695715200000, rate: 0.000013 },
    last: { time: 1695776400000, rate: 0.0005 },
    intervalHours: null,
    next: null,
  },
  {
    name: "hyperliquid, 8-hourly 2023 rows, the walk goes on past the answer",
    reader: hyperliquidHistory,
    fixture: "REAL hyperliquid/fundingHistory_BTC_startTime-endTime_2023-07-17_34rows.json",
    market: market("hyperliquid", "BTC/USDC:USDC", "BTC"),
    range: { since: 1681923833000, until: 1684811870000 },
    io: () => fixedIo(historyJson("hyperliquid/fundingHistory_BTC_startTime-endTime_2023-07-17_34rows.json")),
    requests: ['POST https://api.hyperliquid.xyz/info {"type":"fundingHistory","coin":"BTC","startTime":1681923833000,"endTime":1684811870000}'],
    count: 34,
    first: { time: 1683849600048, rate: -0.00061334 },
    last: { time: 1684800000022, rate: -0.00018991 },
    intervalHours: null,
    next: "1684800000023",
  },
  {
    name: "hyperliquid, hourly HYPE rows, the 0.0000125 hourly base not divided again",
    reader: hyperliquidHistory,
    fixture: "REAL hyperliquid/fundingHistory_HYPE_2026-09_first48.json",
    market: market("hyperliquid", "HYPE/USDC:USDC", "HYPE"),
    range: { since: 1788793200000, until: 1788962400073 },
    io: () => fixedIo(historyJson("hyperliquid/fundingHistory_HYPE_2026-09_first48.json")),
    requests: ['POST https://api.hyperliquid.xyz/info {"type":"fundingHistory","coin":"HYPE","startTime":1788793200000,"endTime":1788962400073}'],
    count: 48,
    first: { time: 1788793200045, rate: 0.0000125 },
    last: { time: 1788962400073, rate: 0.0000125 },
    intervalHours: null,
    next: null,
  },
  {
    name: "dydx, ISO effectiveAt, newest first",
    reader: dydxHistory,
    fixture: "REAL dydx/historicalFunding_BTC-USD_2025-12-08.json",
    market: market("dydx", "BTC/USD:USDC", "BTC-USD"),
    range: { since: Date.UTC(2025, 11, 8, 12), until: Date.UTC(2025, 11, 8, 16, 12) },
    io: () => fixedIo(historyJson("dydx/historicalFunding_BTC-USD_2025-12-08.json")),
    requests: ["GET https://indexer.dydx.trade/v4/historicalFunding/BTC-USD?effectiveBeforeOrAt=2025-12-08T16%3A12%3A00.000Z&limit=100"],
    count: 3,
    first: { time: Date.parse("2025-12-08T14:00:00.112Z"), rate: 0.000000625 },
    last: { time: Date.parse("2025-12-08T16:00:00.219Z"), rate: 0.000002375 },
    intervalHours: 1,
    next: null,
  },
  {
    name: "extended, the rounded int64 cursor never echoed",
    reader: extendedHistory,
    fixture: "REAL extended/info_funding_BTC-USD_limit1_2026-04-30.json",
    market: market("extended", "BTC/USD:USDC", "BTC-USD"),
    range: { since: 1777420800000, until: 1777510800000 },
    io: () => fixedIo(historyJson("extended/info_funding_BTC-USD_limit1_2026-04-30.json")),
    requests: ["GET https://api.starknet.extended.exchange/api/v1/info/BTC-USD/funding?startTime=1777420800000&endTime=1777510800000&limit=1000"],
    count: 1,
    first: { time: 1777507201028, rate: 0.000008 },
    last: { time: 1777507201028, rate: 0.000008 },
    intervalHours: 1,
    next: null,
  },
  {
    name: "gate, times in seconds, a 1000-hour window",
    reader: gateHistory,
    fixture: "BUILT from REAL gate/longseries_BTC_USDT_2020-01-01_2023-12-31_supervik_utc.csv",
    market: market("gate", "BTC/USDT:USDT", "BTC_USDT"),
    range: DECEMBER_2023,
    io: () => gateServer(longSeries("gate/longseries_BTC_USDT_2020-01-01_2023-12-31_supervik_utc.csv", "utc")),
    requests: ["GET https://api.gateio.ws/api/v4/futures/usdt/funding_rate?contract=BTC_USDT&from=1701388800&to=1704067199&limit=1000"],
    count: 93,
    first: { time: Date.UTC(2023, 11, 1, 0), rate: 0.0001 },
    last: { time: Date.UTC(2023, 11, 31, 16), rate: 0.000313 },
    intervalHours: null,
    next: null,
  },
  {
    name: "htx, page 1 of 66, snake_case",
    reader: htxHistory,
    fixture: "BUILT from REAL htx/longseries_BTC-USDT_2021-01-01_2023-12-31_supervik_localtime.csv (UTC+3 read as such)",
    market: market("htx", "BTC/USDT:USDT", "BTC-USDT"),
    range: DECEMBER_2023,
    io: () => htxServer(longSeries("htx/longseries_BTC-USDT_2021-01-01_2023-12-31_supervik_localtime.csv", "utc+3"), "BTC-USDT"),
    requests: ["GET https://api.hbdm.com/linear-swap-api/v1/swap_historical_funding_rate?contract_code=BTC-USDT&page_index=1&page_size=50"],
    count: 50,
    first: { time: Date.UTC(2023, 11, 15, 8), rate: 0.0001 },
    last: { time: Date.UTC(2023, 11, 31, 16), rate: 0.000467747105154478 },
    intervalHours: null,
    next: "2",
  },
  {
    name: "mexc, page 1 reaches past since: the walk ends",
    reader: mexcHistory,
    fixture: "BUILT from REAL mexc/longseries_BTC_USDT_2021-01-01_2023-12-31_supervik_localtime.csv (UTC+3 read as such)",
    market: market("mexc", "BTC/USDT:USDT", "BTC_USDT"),
    range: DECEMBER_2023,
    io: () => mexcServer(longSeries("mexc/longseries_BTC_USDT_2021-01-01_2023-12-31_supervik_localtime.csv", "utc+3"), "BTC_USDT"),
    requests: ["GET https://contract.mexc.com/api/v1/contract/funding_rate/history?symbol=BTC_USDT&page_num=1&page_size=100"],
    count: 100,
    first: { time: Date.UTC(2023, 10, 28, 16), rate: 0.0001 },
    last: { time: Date.UTC(2023, 11, 31, 16), rate: 0.000336 },
    intervalHours: null,
    next: null,
  },
  {
    name: "kucoinfutures, no pagination: a 100-hour window, then the one before",
    reader: kucoinfuturesHistory,
    fixture: "BUILT from REAL kucoinfutures/longseries_XBTUSDTM_2021-01-01_2023-12-31_supervik_localtime.csv (UTC+3 read as such)",
    market: market("kucoinfutures", "BTC/USDT:USDT", "XBTUSDTM"),
    range: DECEMBER_2023,
    io: () => kucoinServer(longSeries("kucoinfutures/longseries_XBTUSDTM_2021-01-01_2023-12-31_supervik_localtime.csv", "utc+3"), "XBTUSDTM"),
    requests: ["GET https://api-futures.kucoin.com/api/v1/contract/funding-rates?symbol=XBTUSDTM&from=1703707200000&to=1704067199999"],
    count: 13,
    first: { time: Date.UTC(2023, 11, 27, 20), rate: 0.000492 },
    last: { time: Date.UTC(2023, 11, 31, 20), rate: 0.000484 },
    intervalHours: null,
    next: "1703707199999",
  },
  {
    name: "kucoinfutures, the documented answer: a number rate and code 200",
    reader: kucoinfuturesHistory,
    fixture: "DOC kucoinfutures/funding-rates_IDUSDTM_docs-example.json",
    market: market("kucoinfutures", "ID/USDT:USDT", "IDUSDTM"),
    range: { since: 1700310700000, until: 1702310700000 },
    io: () => fixedIo(historyJson("kucoinfutures/funding-rates_IDUSDTM_docs-example.json")),
    requests: ["GET https://api-futures.kucoin.com/api/v1/contract/funding-rates?symbol=IDUSDTM&from=1701950700001&to=1702310700000"],
    count: 1,
    first: { time: 1702310700000, rate: 0.01875 },
    last: { time: 1702310700000, rate: 0.01875 },
    intervalHours: null,
    next: "1701950700000",
  },
  {
    name: "coinex, the actual rate of the market asked for",
    reader: coinexHistory,
    fixture: "DOC coinex/funding-rate-history_docs-example.json",
    market: market("coinex", "LAT/USDT:USDT", "LATUSDT"),
    range: { since: 1642000000000, until: 1642200000000 },
    io: () => fixedIo(historyJson("coinex/funding-rate-history_docs-example.json")),
    requests: ["GET https://api.coinex.com/v2/futures/funding-rate-history?market=LATUSDT&start_time=1642000000000&end_time=1642200000000&page=1&limit=100"],
    count: 1,
    first: { time: 1642145331234, rate: -0.00027732 },
    last: { time: 1642145331234, rate: -0.00027732 },
    intervalHours: null,
    next: null,
  },
  {
    name: "bitmex, ISO times both ways, a daily fundingInterval written as 2000-01-02, fundingRateDaily not read",
    reader: bitmexHistory,
    fixture: "DOC bitmex/funding_ETHXBT_ccxt-comment-example.json",
    market: market("bitmex", "ETH/BTC:BTC", "ETHXBT"),
    range: { since: Date.UTC(2016, 4, 7), until: Date.UTC(2016, 4, 8) },
    io: () => fixedIo(historyJson("bitmex/funding_ETHXBT_ccxt-comment-example.json")),
    requests: [
      "GET https://www.bitmex.com/api/v1/funding?symbol=ETHXBT&startTime=2016-05-07T00%3A00%3A00.000Z&endTime=2016-05-08T00%3A00%3A00.000Z&count=500&reverse=false",
    ],
    count: 1,
    first: { time: Date.parse("2016-05-07T12:00:00.000Z"), rate: 0.0010890000000000001 },
    last: { time: Date.parse("2016-05-07T12:00:00.000Z"), rate: 0.0010890000000000001 },
    intervalHours: 24,
    next: null,
  },
  {
    name: "woo, page 1 of 468 by meta.total, a string rate",
    reader: wooHistory,
    fixture: "REAL woo/fundingRateHistory_PERP_BTC_USDT_page1_2025-07-04.json",
    market: market("woo", "BTC/USDT:USDT", "PERP_BTC_USDT"),
    range: { since: 1751328000000, until: 1751632390031 },
    io: () => fixedIo(historyJson("woo/fundingRateHistory_PERP_BTC_USDT_page1_2025-07-04.json")),
    requests: ["GET https://api.woox.io/v3/public/fundingRateHistory?symbol=PERP_BTC_USDT&startTime=1751328000000&endTime=1751632390031&page=1&size=25"],
    count: 1,
    first: { time: 1751616000000, rate: -0.00004953 },
    last: { time: 1751616000000, rate: -0.00004953 },
    intervalHours: null,
    next: "2",
  },
  {
    name: "phemex, a USDT perpetual under .BTCUSDTFR8H, every field a string",
    reader: phemexHistory,
    fixture: "DOC phemex/funding-rate-history_BTCUSDTFR8H_ccxt-comment-example.json",
    market: market("phemex", "BTC/USDT:USDT", "BTCUSDT"),
    range: { since: Date.UTC(2023, 3, 21), until: Date.UTC(2023, 3, 22) },
    io: () => fixedIo(historyJson("phemex/funding-rate-history_BTCUSDTFR8H_ccxt-comment-example.json")),
    requests: ["GET https://api.phemex.com/api-data/public/data/funding-rate-history?symbol=.BTCUSDTFR8H&start=1682035200000&end=1682121600000&limit=100"],
    count: 1,
    first: { time: 1682064000000, rate: 0.0001 },
    last: { time: 1682064000000, rate: 0.0001 },
    intervalHours: 8,
    next: null,
  },
  {
    name: "phemex, the documented answer: a coin-margined .BTCFR8H, ascending, numbers as numbers",
    reader: phemexHistory,
    fixture: "DOC phemex/funding-rate-history_BTCFR8H_docs-example.json",
    market: market("phemex", "BTC/USD:BTC", "BTCUSD"),
    range: { since: Date.UTC(2023, 3, 6), until: Date.UTC(2023, 3, 7, 12) },
    io: () => fixedIo(historyJson("phemex/funding-rate-history_BTCFR8H_docs-example.json")),
    requests: ["GET https://api.phemex.com/api-data/public/data/funding-rate-history?symbol=.BTCFR8H&start=1680739200000&end=1680868800000&limit=100"],
    count: 2,
    first: { time: 1680796800000, rate: 0.00007058 },
    last: { time: 1680825600000, rate: 0.00006672 },
    intervalHours: 8,
    next: null,
  },
  {
    name: "bingx, newest first, a 1000-hour window",
    reader: bingxHistory,
    fixture: "DOC bingx/fundingRate_QNT-USDT_docs-example.json",
    market: market("bingx", "QNT/USDT:USDT", "QNT-USDT"),
    range: { since: Date.UTC(2023, 11, 15), until: Date.UTC(2023, 11, 16, 12) },
    io: () => fixedIo(historyJson("bingx/fundingRate_QNT-USDT_docs-example.json")),
    requests: ["GET https://open-api.bingx.com/openApi/swap/v2/quote/fundingRate?symbol=QNT-USDT&startTime=1702598400000&endTime=1702728000000&limit=1000"],
    count: 2,
    first: { time: 1702684800000, rate: 0.000128 },
    last: { time: 1702713600000, rate: 0.000271 },
    intervalHours: null,
    next: null,
  },
  {
    name: "deribit, the hourly interest_1h served as a 1 h settlement, never the trailing interest_8h",
    reader: deribitHistory,
    fixture: "DOC deribit/get_funding_rate_history_BTC-PERPETUAL_docs-example.json",
    market: market("deribit", "BTC/USD:BTC", "BTC-PERPETUAL"),
    range: { since: 1569888000000, until: 1569902400000 },
    io: () => fixedIo(historyJson("deribit/get_funding_rate_history_BTC-PERPETUAL_docs-example.json")),
    requests: ["GET https://www.deribit.com/api/v2/public/get_funding_rate_history?instrument_name=BTC-PERPETUAL&start_timestamp=1569887999999&end_timestamp=1569902400000"],
    count: 1,
    first: { time: 1569891600000, rate: -4.739622041017375e-7 },
    last: { time: 1569891600000, rate: -4.739622041017375e-7 },
    intervalHours: 1,
    next: null,
  },
  {
    name: "deribit, a long range: the newest 720-hour window first, the next one ending where it starts",
    reader: deribitHistory,
    fixture: "DOC deribit/get_funding_rate_history_BTC-PERPETUAL_docs-example.json",
    market: market("deribit", "BTC/USD:BTC", "BTC-PERPETUAL"),
    range: { since: Date.UTC(2019, 0, 1), until: 1569902400000 },
    io: () => fixedIo(historyJson("deribit/get_funding_rate_history_BTC-PERPETUAL_docs-example.json")),
    requests: ["GET https://www.deribit.com/api/v2/public/get_funding_rate_history?instrument_name=BTC-PERPETUAL&start_timestamp=1567310400000&end_timestamp=1569902400000"],
    count: 1,
    first: { time: 1569891600000, rate: -4.739622041017375e-7 },
    last: { time: 1569891600000, rate: -4.739622041017375e-7 },
    intervalHours: 1,
    next: "1567310400000",
  },
  {
    name: "bingx, a long range: the newest 1000-hour window first, then the one before",
    reader: bingxHistory,
    fixture: "DOC bingx/fundingRate_QNT-USDT_docs-example.json",
    market: market("bingx", "QNT/USDT:USDT", "QNT-USDT"),
    range: { since: Date.UTC(2023, 0, 1), until: Date.UTC(2023, 11, 16, 12) },
    io: () => fixedIo(historyJson("bingx/fundingRate_QNT-USDT_docs-example.json")),
    requests: ["GET https://open-api.bingx.com/openApi/swap/v2/quote/fundingRate?symbol=QNT-USDT&startTime=1699128000001&endTime=1702728000000&limit=1000"],
    count: 2,
    first: { time: 1702684800000, rate: 0.000128 },
    last: { time: 1702713600000, rate: 0.000271 },
    intervalHours: null,
    next: "1699128000000",
  },
  {
    name: "bitmart, the latest 100 settlements in one answer: no time bound, no next page",
    reader: bitmartHistory,
    fixture: "DOC bitmart/funding-rate-history_BTCUSDT_docs-example.json",
    market: market("bitmart", "BTC/USDT:USDT", "BTCUSDT"),
    range: { since: Date.UTC(2024, 10, 1), until: Date.UTC(2024, 11, 31) },
    io: () => fixedIo(historyJson("bitmart/funding-rate-history_BTCUSDT_docs-example.json")),
    requests: ["GET https://api-cloud-v2.bitmart.com/contract/public/funding-rate-history?symbol=BTCUSDT&limit=100"],
    count: 1,
    first: { time: 1733979600000, rate: 0.000090600584 },
    last: { time: 1733979600000, rate: 0.000090600584 },
    intervalHours: null,
    next: null,
  },
  {
    name: "cryptocom, funding_hist points of one instrument in a 24-hour window",
    reader: cryptocomHistory,
    fixture: "DOC cryptocom/get-valuations_funding_hist_BTCUSD-PERP_ccxt-comment-example.json",
    market: market("cryptocom", "BTC/USD:USD", "BTCUSD-PERP"),
    range: { since: Date.UTC(2023, 5, 27), until: Date.UTC(2023, 5, 27, 20) },
    io: () => fixedIo(historyJson("cryptocom/get-valuations_funding_hist_BTCUSD-PERP_ccxt-comment-example.json")),
    requests: [
      `GET https://api.crypto.com/exchange/v1/public/get-valuations?instrument_name=BTCUSD-PERP&valuation_type=funding_hist&count=25&start_ts=${Date.UTC(2023, 5, 27)}&end_ts=${Date.UTC(2023, 5, 27, 20)}`,
    ],
    count: 1,
    first: { time: 1687892400000, rate: -0.000001884 },
    last: { time: 1687892400000, rate: -0.000001884 },
    intervalHours: 1,
    next: null,
  },
  {
    name: "paradex, 5-s observations settled per 8 h period by the funding-index delta",
    reader: paradexHistory,
    fixture: "BUILT from REAL paradex/funding-data_BTC-USD-PERP_* (windows answered from the recorded rows by paradexServer)",
    market: market("paradex", "BTC/USDC:USDC", "BTC-USD-PERP"),
    range: { since: PARADEX_B0 + 1, until: PARADEX_B4 + 30_000 },
    io: () => paradexServer(paradexRows()),
    requests: [
      `GET ${PARADEX_URL}&end_at=${PARADEX_B4 + 30_000}&page_size=1`,
      ...[4, 3, 2, 1, 0].map((k) => {
        const boundary = PARADEX_B0 + k * 8 * 3_600_000;
        return `GET ${PARADEX_URL}&start_at=${boundary}&end_at=${boundary + 30_000}&page_size=100`;
      }),
    ],
    count: 4,
    first: { time: PARADEX_B0 + 8 * 3_600_000, rate: 0.0000985551913907 },
    last: { time: PARADEX_B4, rate: 0.000093071259422 },
    intervalHours: 8,
    next: null,
  },
  {
    name: "backpack, zone-less UTC times, the running interval dropped",
    reader: backpackHistory,
    fixture: "REAL backpack/fundingRates_BTC_USDC_PERP_2026-09-23T03-23_pasted2rows.json",
    market: market("backpack", "BTC/USDC:USDC", "BTC_USDC_PERP"),
    // Read at 03:23 UTC: the row ending 04:00 was the interval still running.
    range: { since: Date.UTC(2026, 8, 23), until: Date.UTC(2026, 8, 23, 3, 23) },
    io: () => fixedIo(historyJson("backpack/fundingRates_BTC_USDC_PERP_2026-09-23T03-23_pasted2rows.json")),
    requests: ["GET https://api.backpack.exchange/api/v1/fundingRates?symbol=BTC_USDC_PERP&limit=1000&offset=0"],
    count: 1,
    first: { time: Date.UTC(2026, 8, 23, 3), rate: 0.000010077 },
    last: { time: Date.UTC(2026, 8, 23, 3), rate: 0.000010077 },
    intervalHours: null,
    next: null,
  },
  {
    name: "grvt, nanosecond times, percentage points, the stated interval",
    reader: grvtHistory,
    fixture: "DOC grvt/funding_BTC_USDT_Perp_docs-example.json",
    market: market("grvt", "BTC/USDT:USDT", "BTC_USDT_Perp"),
    range: { since: 1697760000000, until: 1697788800000 },
    io: () => fixedIo(historyJson("grvt/funding_BTC_USDT_Perp_docs-example.json")),
    requests: [
      'POST https://market-data.grvt.io/full/v1/funding {"instrument":"BTC_USDT_Perp","start_time":"1697760000000000000","end_time":"1697788800000000000","limit":1000,"agg_type":"FUNDING_INTERVAL"}',
    ],
    count: 1,
    first: { time: 1697788800000, rate: 0.000003 },
    last: { time: 1697788800000, rate: 0.000003 },
    intervalHours: 8,
    next: "Qw0918=",
  },
  {
    name: "lighter, percent per hour with the sign in direction: 0.0012 long is +0.000012, 0.0002 short −0.000002",
    reader: lighterHistory,
    fixture: "SCHEMA (provenance unstated upstream) lighter/fundings_ETH_resolution-1h_nautilus-schema-fixture.json",
    market: market("lighter", "ETH/USDC:USDC", "0"),
    range: { since: Date.UTC(2026, 4, 13), until: Date.UTC(2026, 4, 14) },
    io: () => fixedIo(historyJson("lighter/fundings_ETH_resolution-1h_nautilus-schema-fixture.json")),
    // The window's start one second early; count_back the window's hours.
    requests: ["GET https://mainnet.zklighter.elliot.ai/api/v1/fundings?market_id=0&resolution=1h&start_timestamp=1778630399&end_timestamp=1778716800&count_back=25"],
    count: 2,
    first: { time: Date.UTC(2026, 4, 13, 20), rate: 0.000012 },
    last: { time: Date.UTC(2026, 4, 13, 21), rate: -0.000002 },
    intervalHours: 1,
    next: null,
  },
  {
    name: "lighter, a long range: the newest 720-hour window first, the next one ending just before it starts",
    reader: lighterHistory,
    fixture: "SCHEMA (provenance unstated upstream) lighter/fundings_ETH_resolution-1h_nautilus-schema-fixture.json",
    market: market("lighter", "ETH/USDC:USDC", "0"),
    range: { since: Date.UTC(2026, 0, 1), until: Date.UTC(2026, 4, 14) },
    io: () => fixedIo(historyJson("lighter/fundings_ETH_resolution-1h_nautilus-schema-fixture.json")),
    requests: ["GET https://mainnet.zklighter.elliot.ai/api/v1/fundings?market_id=0&resolution=1h&start_timestamp=1776124800&end_timestamp=1778716800&count_back=720"],
    count: 2,
    first: { time: Date.UTC(2026, 4, 13, 20), rate: 0.000012 },
    last: { time: Date.UTC(2026, 4, 13, 21), rate: -0.000002 },
    intervalHours: 1,
    next: String(Date.UTC(2026, 4, 14) - 720 * 3_600_000),
  },
  // Each HIP-3 dex's reader on the docs' one HIP-3 page (its coin is xyz's; the readers differ only
  // in the coin they ask for and the venue they are named by).
  ...HIP3_HISTORY_READERS.map((reader): HistoryRow => {
    const dex = reader.exchange.slice("hyperliquid:".length);
    return {
      name: `${reader.exchange}, the docs' HIP-3 page: the prefixed coin asked for, the hourly rate as is`,
      reader,
      fixture: "DOC hyperliquid-hip3/fundingHistory_xyz-XYZ100_DOC.json",
      market: market(reader.exchange, `${dex.toUpperCase()}-XYZ100/USDC:USDC`, `${dex}:XYZ100`),
      range: { since: 1683849600000, until: 1683853200000 },
      io: () => fixedIo(historyJson("hyperliquid-hip3/fundingHistory_xyz-XYZ100_DOC.json")),
      requests: [`POST https://api.hyperliquid.xyz/info {"type":"fundingHistory","coin":"${dex}:XYZ100","startTime":1683849600000,"endTime":1683853200000}`],
      count: 1,
      first: { time: 1683849600076, rate: -0.00022196 },
      last: { time: 1683849600076, rate: -0.00022196 },
      intervalHours: null,
      next: "1683849600077",
    };
  }),
];
