/*
 * Replay route sets per venue: the build input of the offline sample (sample-venue-responses.ts)
 * and what the connector tests replay. What is real and what is synthetic:
 *
 * - REAL: every file read through fixtureText/fixtureJson (recorded payloads under
 *   lib/market/fixtures; where each was captured is in lib/market/fixtures/SOURCES.md): Binance
 *   premiumIndex 2024-11-27 and 2025-06-17, Binance exchangeInfo 2021-09-06, OKX SWAP instruments,
 *   Hyperliquid metaAndAssetCtxs and predictedFundings (2026-09).
 * - SYNTHETIC (built here because no multi-row capture exists): Binance exchangeInfo rows for the
 *   2025 symbols (cloned from the real 2021 BTCUSDT row), Binance fundingInfo and ticker/24hr rows,
 *   all Bybit, Bitget and Gate payloads, OKX funding-rate / mark-price / tickers / open-interest.
 *   Their field names follow the venue docs and the single rows quoted in SOURCES.md; where a value
 *   could be taken from a real capture it was (Bybit rates from the BybitPerp entries Hyperliquid
 *   relays in predictedFundings, Bitget's BTCUSDT row quoted in SOURCES.md). The other numbers are
 *   made up and marked so.
 */
import { fixtureJson, fixtureText } from "./read-fixture";
import type { ReplayRoute } from "../replay-fetch";

type Row = Record<string, unknown>;

// ---------------------------------------------------------------------------------------------
// Binance USDⓈ-M

/** REAL exchangeInfo (2021, 9 perpetuals) + REAL premiumIndex (2024-11-27, 67 rows). */
export function binance2024Routes(): ReplayRoute[] {
  return [
    { path: "/fapi/v1/exchangeInfo", reply: { body: fixtureText("binance/exchangeInfo_2021-09-06_trimmed.json") } },
    { path: "/fapi/v1/premiumIndex", reply: { body: fixtureText("binance/premiumIndex_2024-11-27.json") } },
  ];
}

/** `time` of every row of the REAL 2025-06-17 premiumIndex: 08:38:08Z. */
export const BINANCE_2025_TIME = 1750149488000;

/**
 * REAL premiumIndex (2025-06-17, 1h/2h/4h/8h symbols) + SYNTHETIC exchangeInfo listing each of
 * its symbols, cloned from the real 2021 BTCUSDT entry.
 */
export function binance2025Routes(): ReplayRoute[] {
  const premiumIndex = fixtureText("binance/premiumIndex_2025-06-17.json");
  return [
    { path: "/fapi/v1/exchangeInfo", reply: { body: binanceExchangeInfoFor(JSON.parse(premiumIndex) as Row[]) } },
    { path: "/fapi/v1/premiumIndex", reply: { body: premiumIndex } },
  ];
}

/**
 * SYNTHETIC exchangeInfo for a premiumIndex capture. Delivery symbols (`BTCUSDT_250627`) become
 * CURRENT_QUARTER contracts; rows whose `estimatedSettlePrice` is 0 (settling or delisting symbols,
 * per SOURCES.md) are marked `SETTLING` — the real status of those symbols at capture time is not
 * recorded anywhere.
 */
export function binanceExchangeInfoFor(premiumIndexRows: readonly Row[]): Row {
  const real = fixtureJson<{ symbols: Row[] } & Row>("binance/exchangeInfo_2021-09-06_trimmed.json");
  const template = real.symbols[0];
  if (!template) throw new Error("exchangeInfo fixture has no symbols");
  const symbols = premiumIndexRows.map((row) => {
    const symbol = String(row.symbol);
    const match = /^(.+?)(USDT|USDC|BTC)(?:_(\d\d)(\d\d)(\d\d))?$/.exec(symbol);
    if (!match?.[1] || !match[2]) throw new Error(`cannot split ${symbol}`);
    const [, baseAsset, quoteAsset, yy, mm, dd] = match;
    const delivery = yy !== undefined && mm !== undefined && dd !== undefined;
    return {
      ...template,
      symbol,
      pair: `${baseAsset}${quoteAsset}`,
      baseAsset,
      quoteAsset,
      marginAsset: quoteAsset,
      contractType: delivery ? "CURRENT_QUARTER" : "PERPETUAL",
      deliveryDate: delivery ? Date.UTC(2000 + Number(yy), Number(mm) - 1, Number(dd), 8) : template.deliveryDate,
      status: row.estimatedSettlePrice === "0.00000000" ? "SETTLING" : "TRADING",
    };
  });
  return { ...real, symbols };
}

/** SYNTHETIC `GET /fapi/v1/fundingInfo` rows in the shape of the quoted live GTCUSDT row. */
export function binanceFundingInfoRows(intervals: Record<string, number>): Row[] {
  return Object.entries(intervals).map(([symbol, fundingIntervalHours]) => ({
    symbol,
    adjustedFundingRateCap: "0.02000000",
    adjustedFundingRateFloor: "-0.02000000",
    fundingIntervalHours,
    disclaimer: false,
    updateTime: 1758377721362,
  }));
}

/** SYNTHETIC `GET /fapi/v1/ticker/24hr` rows; only `quoteVolume` matters, values made up. */
export function binanceTickerRows(quoteVolumes: Record<string, string>): Row[] {
  return Object.entries(quoteVolumes).map(([symbol, quoteVolume]) => ({
    symbol,
    priceChange: "0",
    priceChangePercent: "0",
    weightedAvgPrice: "0",
    lastPrice: "0",
    lastQty: "0",
    openPrice: "0",
    highPrice: "0",
    lowPrice: "0",
    volume: "0",
    quoteVolume,
    openTime: 1750063080000,
    closeTime: BINANCE_2025_TIME,
    firstId: 1,
    lastId: 2,
    count: 2,
  }));
}

// ---------------------------------------------------------------------------------------------
// Bybit v5 — all SYNTHETIC (no multi-row capture exists).

/** Bybit's rates for BTC/ETH/SOL as Hyperliquid relays them in the REAL predictedFundings capture. */
function relayedBybitRates(): Map<string, { fundingRate: string; nextFundingTime: number; fundingIntervalHours: number }> {
  const predicted = fixtureJson<[string, [string, Row | null][]][]>(
    "hyperliquid/predictedFundings_2026-09_BTC-ETH-HYPE-SOL.json",
  );
  const rates = new Map<string, { fundingRate: string; nextFundingTime: number; fundingIntervalHours: number }>();
  for (const [coin, venues] of predicted) {
    const bybit = venues.find(([venue]) => venue === "BybitPerp")?.[1];
    if (bybit) {
      rates.set(coin, {
        fundingRate: String(bybit.fundingRate),
        nextFundingTime: Number(bybit.nextFundingTime),
        fundingIntervalHours: Number(bybit.fundingIntervalHours),
      });
    }
  }
  return rates;
}

function bybitInstrument(symbol: string, overrides: Row): Row {
  return {
    symbol,
    contractType: "LinearPerpetual",
    status: "Trading",
    baseCoin: "BTC",
    quoteCoin: "USDT",
    launchTime: "1584230400000",
    deliveryTime: "0",
    deliveryFeeRate: "",
    priceScale: "2",
    leverageFilter: { minLeverage: "1", maxLeverage: "100.00", leverageStep: "0.01" },
    priceFilter: { minPrice: "0.10", maxPrice: "1999999.80", tickSize: "0.10" },
    lotSizeFilter: {
      maxOrderQty: "1190.000",
      minOrderQty: "0.001",
      qtyStep: "0.001",
      postOnlyMaxOrderQty: "1190.000",
      maxMktOrderQty: "500.000",
      minNotionalValue: "5",
    },
    unifiedMarginTrade: true,
    fundingInterval: 480,
    settleCoin: "USDT",
    copyTrading: "both",
    upperFundingRate: "0.005",
    lowerFundingRate: "-0.005",
    isPreListing: false,
    preListingInfo: null,
    ...overrides,
  };
}

function bybitTicker(symbol: string, overrides: Row): Row {
  return {
    symbol,
    lastPrice: "0",
    indexPrice: "0",
    markPrice: "0",
    prevPrice24h: "0",
    price24hPcnt: "0",
    highPrice24h: "0",
    lowPrice24h: "0",
    prevPrice1h: "0",
    openInterest: "0",
    openInterestValue: "0",
    turnover24h: "0",
    volume24h: "0",
    fundingRate: "0",
    nextFundingTime: "0",
    predictedDeliveryPrice: "",
    basisRate: "",
    deliveryFeeRate: "",
    deliveryTime: "0",
    ask1Size: "0",
    bid1Price: "0",
    ask1Price: "0",
    bid1Size: "0",
    basis: "",
    fundingCap: "0.005",
    ...overrides,
  };
}

function bybitEnvelope(list: Row[], time: number): Row {
  return { retCode: 0, retMsg: "OK", result: { category: "linear", list }, retExtInfo: {}, time };
}

export const BYBIT_TIME = 1790517000000;

/**
 * Markets: BTC/ETH/SOL USDT perpetuals (rates REAL as relayed), 1000PEPEUSDT (4h, negative, made
 * up), BTCPERP (USDC perpetual whose ticker lacks `fundingIntervalHour`, so the instrument's
 * `fundingInterval` minutes must be used), BTC-26DEC25 (delivery) and a PreLaunch listing.
 */
export function bybitRoutes(): ReplayRoute[] {
  const relayed = relayedBybitRates();
  const coin = (name: string) => {
    const rate = relayed.get(name);
    if (!rate) throw new Error(`no relayed Bybit rate for ${name}`);
    return rate;
  };
  const prices: Record<string, string> = { BTC: "84990.10", ETH: "2707.90", SOL: "122.98" };
  const instruments = [
    ...["BTC", "ETH", "SOL"].map((base) => bybitInstrument(`${base}USDT`, { baseCoin: base })),
    bybitInstrument("1000PEPEUSDT", { baseCoin: "1000PEPE", fundingInterval: 240 }),
    bybitInstrument("BTCPERP", { quoteCoin: "USDC", settleCoin: "USDC" }),
    bybitInstrument("BTC-26DEC25", {
      contractType: "LinearFutures",
      quoteCoin: "USDC",
      settleCoin: "USDC",
      deliveryTime: "1766736000000",
      fundingInterval: 0,
    }),
  ];
  const preLaunch = [bybitInstrument("NEWCOINUSDT", { baseCoin: "NEWCOIN", status: "PreLaunch", isPreListing: true })];
  const tickers = [
    ...["BTC", "ETH", "SOL"].map((base) => {
      const rate = coin(base);
      return bybitTicker(`${base}USDT`, {
        fundingRate: rate.fundingRate,
        nextFundingTime: String(rate.nextFundingTime),
        fundingIntervalHour: String(rate.fundingIntervalHours),
        markPrice: prices[base],
        indexPrice: prices[base],
        lastPrice: prices[base],
        openInterestValue: "1000000000.00",
        turnover24h: "2000000000.0000",
      });
    }),
    bybitTicker("1000PEPEUSDT", {
      fundingRate: "-0.00012",
      nextFundingTime: "1790524800000",
      fundingIntervalHour: "4",
      markPrice: "0.010520",
      indexPrice: "0.010530",
      openInterestValue: "85000000.00",
      turnover24h: "300000000.0000",
    }),
    bybitTicker("BTCPERP", {
      fundingRate: "0.00004403",
      nextFundingTime: "1790524800000",
      markPrice: "85001.50",
      indexPrice: "85000.00",
      openInterestValue: "50000000.00",
      turnover24h: "90000000.0000",
    }),
    bybitTicker("BTC-26DEC25", { fundingRate: "", nextFundingTime: "0", markPrice: "86010.00", deliveryTime: "1766736000000" }),
  ];
  return [
    {
      path: "/v5/market/instruments-info",
      query: { category: "linear", status: "PreLaunch" },
      reply: { body: bybitEnvelope(preLaunch, BYBIT_TIME) },
    },
    { path: "/v5/market/instruments-info", query: { category: "linear" }, reply: { body: bybitEnvelope(instruments, BYBIT_TIME) } },
    { path: "/v5/market/tickers", query: { category: "linear" }, reply: { body: bybitEnvelope(tickers, BYBIT_TIME) } },
  ];
}

// ---------------------------------------------------------------------------------------------
// OKX v5 — REAL instruments (BTC-USD-SWAP inverse, ETH-USDT-SWAP, BTC-USDT-SWAP); the rest SYNTHETIC.

export const OKX_TS = 1790517000000;

function okxFundingRow(instId: string, fundingRate: string, fundingTime: number, nextFundingTime: number): Row {
  return {
    formulaType: "withRate",
    fundingRate,
    fundingTime: String(fundingTime),
    impactValue: "20000",
    instId,
    instType: "SWAP",
    interestRate: "0.0001",
    maxFundingRate: "0.00375",
    method: "current_period",
    minFundingRate: "-0.00375",
    nextFundingRate: "",
    nextFundingTime: String(nextFundingTime),
    premium: "-0.0001",
    settFundingRate: "0.00007",
    settState: "settled",
    ts: String(OKX_TS),
  };
}

/**
 * BTC-USDT-SWAP 8h (settlements 1790524800000 → 1790553600000), ETH-USDT-SWAP 4h and negative
 * (made up: the real ETH swap settles 8-hourly), BTC-USD-SWAP inverse (must be excluded).
 */
export function okxRoutes(): ReplayRoute[] {
  const ok = (data: Row[]) => ({ body: { code: "0", msg: "", data } });
  return [
    {
      path: "/api/v5/public/instruments",
      query: { instType: "SWAP" },
      reply: { body: fixtureText("okx/instruments_SWAP_sample.json") },
    },
    {
      path: "/api/v5/public/funding-rate",
      query: { instId: "ANY" },
      reply: ok([
        okxFundingRow("BTC-USDT-SWAP", "0.0000912", 1790524800000, 1790553600000),
        okxFundingRow("ETH-USDT-SWAP", "-0.0000421", 1790524800000, 1790539200000),
        okxFundingRow("BTC-USD-SWAP", "0.0000800", 1790524800000, 1790553600000),
      ]),
    },
    {
      path: "/api/v5/public/mark-price",
      query: { instType: "SWAP" },
      reply: ok([
        { instType: "SWAP", instId: "BTC-USDT-SWAP", markPx: "84975.3", ts: String(OKX_TS) },
        { instType: "SWAP", instId: "ETH-USDT-SWAP", markPx: "2706.51", ts: String(OKX_TS) },
        { instType: "SWAP", instId: "BTC-USD-SWAP", markPx: "84970.1", ts: String(OKX_TS) },
      ]),
    },
    {
      path: "/api/v5/market/tickers",
      query: { instType: "SWAP" },
      reply: ok([
        okxTicker("BTC-USDT-SWAP", "84976.0", "10000.5"),
        okxTicker("ETH-USDT-SWAP", "2706.6", "200000"),
      ]),
    },
    {
      path: "/api/v5/public/open-interest",
      query: { instType: "SWAP" },
      reply: ok([
        { instType: "SWAP", instId: "BTC-USDT-SWAP", oi: "2500000", oiCcy: "25000", oiUsd: "2124382500", ts: String(OKX_TS) },
        { instType: "SWAP", instId: "ETH-USDT-SWAP", oi: "1500000", oiCcy: "150000", oiUsd: "405976500", ts: String(OKX_TS) },
      ]),
    },
  ];
}

function okxTicker(instId: string, last: string, volCcy24h: string): Row {
  return {
    instType: "SWAP",
    instId,
    last,
    lastSz: "1",
    askPx: last,
    askSz: "10",
    bidPx: last,
    bidSz: "10",
    open24h: last,
    high24h: last,
    low24h: last,
    volCcy24h,
    vol24h: String(Number(volCcy24h) * 100),
    ts: String(OKX_TS),
    sodUtc0: last,
    sodUtc8: last,
  };
}

// ---------------------------------------------------------------------------------------------
// Bitget v2 — all SYNTHETIC except the BTCUSDT current-fund-rate row quoted in SOURCES.md.

function bitgetContract(symbol: string, overrides: Row): Row {
  return {
    symbol,
    baseCoin: "BTC",
    quoteCoin: "USDT",
    buyLimitPriceRatio: "0.01",
    sellLimitPriceRatio: "0.01",
    feeRateUpRatio: "0.005",
    makerFeeRate: "0.0002",
    takerFeeRate: "0.0006",
    openCostUpRatio: "0.01",
    supportMarginCoins: ["USDT"],
    minTradeNum: "0.001",
    priceEndStep: "1",
    volumePlace: "3",
    pricePlace: "1",
    sizeMultiplier: "0.001",
    symbolType: "perpetual",
    minTradeUSDT: "5",
    maxSymbolOrderNum: "200",
    maxProductOrderNum: "400",
    maxPositionNum: "150",
    symbolStatus: "normal",
    offTime: "-1",
    limitOpenTime: "-1",
    deliveryTime: "",
    deliveryStartTime: "",
    launchTime: "",
    fundInterval: "8",
    minLever: "1",
    maxLever: "125",
    posLimit: "0.05",
    maintainTime: "",
    ...overrides,
  };
}

/** 2026-08-01 07:40Z, the hour before the quoted row's next settlement (`nextUpdate` 08:00Z). */
export const BITGET_TIME = 1785570000000;

function bitgetTicker(symbol: string, overrides: Row): Row {
  return {
    symbol,
    lastPr: "0",
    askPr: "0",
    bidPr: "0",
    bidSz: "0",
    askSz: "0",
    high24h: "0",
    low24h: "0",
    ts: String(BITGET_TIME),
    change24h: "0",
    baseVolume: "0",
    quoteVolume: "0",
    usdtVolume: "0",
    openUtc: "0",
    changeUtc24h: "0",
    indexPrice: "0",
    fundingRate: "0",
    holdingAmount: "0",
    deliveryStartTime: null,
    deliveryTime: null,
    deliveryStatus: "",
    open24h: "0",
    markPrice: "0",
    ...overrides,
  };
}

/**
 * USDT-FUTURES: BTCUSDT (REAL quoted rate row: 0.000054, 8h, nextUpdate 1785571200000), PEPEUSDT
 * (4h, negative, made up), ETHUSDT (listed, but absent from the funding list), BTCUSDT260626
 * (delivery), OLDUSDT (symbolStatus "off"). USDC-FUTURES: BTCPERP (1h, made up). Other product
 * lines answer empty lists.
 */
export function bitgetRoutes(): ReplayRoute[] {
  const ok = (data: Row[]) => ({ body: { code: "00000", msg: "success", requestTime: BITGET_TIME, data } });
  const contracts: Record<string, Row[]> = {
    "USDT-FUTURES": [
      bitgetContract("BTCUSDT", {}),
      bitgetContract("ETHUSDT", { baseCoin: "ETH" }),
      bitgetContract("PEPEUSDT", { baseCoin: "PEPE", fundInterval: "4", takerFeeRate: "0.0006" }),
      bitgetContract("BTCUSDT260626", { symbolType: "delivery", deliveryTime: "1782460800000" }),
      bitgetContract("OLDUSDT", { baseCoin: "OLD", symbolStatus: "off" }),
    ],
    "USDC-FUTURES": [bitgetContract("BTCPERP", { quoteCoin: "USDC", supportMarginCoins: ["USDC"], fundInterval: "1" })],
  };
  const fundRates: Record<string, Row[]> = {
    "USDT-FUTURES": [
      {
        symbol: "BTCUSDT",
        fundingRate: "0.000054",
        fundingRateInterval: "8",
        nextUpdate: "1785571200000",
        minFundingRate: "-0.003",
        maxFundingRate: "0.003",
      },
      {
        symbol: "PEPEUSDT",
        fundingRate: "-0.000310",
        fundingRateInterval: "4",
        nextUpdate: "1785571200000",
        minFundingRate: "-0.003",
        maxFundingRate: "0.003",
      },
      {
        symbol: "OLDUSDT",
        fundingRate: "0.000100",
        fundingRateInterval: "8",
        nextUpdate: "1785571200000",
        minFundingRate: "-0.003",
        maxFundingRate: "0.003",
      },
    ],
    "USDC-FUTURES": [
      {
        symbol: "BTCPERP",
        fundingRate: "0.000010",
        fundingRateInterval: "1",
        nextUpdate: "1785571200000",
        minFundingRate: "-0.003",
        maxFundingRate: "0.003",
      },
    ],
  };
  const tickers: Record<string, Row[]> = {
    "USDT-FUTURES": [
      bitgetTicker("BTCUSDT", { markPrice: "115010.5", indexPrice: "115000.1", holdingAmount: "30000.5", quoteVolume: "4500000000" }),
      bitgetTicker("PEPEUSDT", { markPrice: "0.00001051", indexPrice: "0.00001052", holdingAmount: "9000000000000", quoteVolume: "120000000" }),
    ],
    "USDC-FUTURES": [
      bitgetTicker("BTCPERP", { markPrice: "115020.0", indexPrice: "115000.1", holdingAmount: "120.5", quoteVolume: "30000000" }),
    ],
  };
  const productTypes = ["USDT-FUTURES", "COIN-FUTURES", "USDC-FUTURES", "SUSDT-FUTURES", "SCOIN-FUTURES", "SUSDC-FUTURES"];
  return productTypes.flatMap((productType): ReplayRoute[] => [
    { path: "/api/v2/mix/market/contracts", query: { productType }, reply: ok(contracts[productType] ?? []) },
    { path: "/api/v2/mix/market/current-fund-rate", query: { productType }, reply: ok(fundRates[productType] ?? []) },
    { path: "/api/v2/mix/market/tickers", query: { productType }, reply: ok(tickers[productType] ?? []) },
  ]);
}

// ---------------------------------------------------------------------------------------------
// Gate v4 — all SYNTHETIC; units as SOURCES.md records them (interval and next apply in seconds).

function gateContract(name: string, overrides: Row): Row {
  return {
    name,
    type: "direct",
    quanto_multiplier: "0.0001",
    ref_discount_rate: "0",
    order_price_deviate: "0.5",
    maintenance_rate: "0.005",
    mark_type: "index",
    last_price: "0",
    mark_price: "0",
    index_price: "0",
    mark_price_round: "0.1",
    funding_offset: 0,
    in_delisting: false,
    risk_limit_base: "1000000",
    interest_rate: "0.0003",
    order_price_round: "0.1",
    order_size_min: 1,
    ref_rebate_rate: "0.2",
    funding_interval: 28800,
    risk_limit_step: "1000000",
    leverage_min: "1",
    leverage_max: "100",
    risk_limit_max: "8000000",
    maker_fee_rate: "-0.00025",
    taker_fee_rate: "0.00075",
    funding_rate: "0",
    order_size_max: 1000000,
    funding_next_apply: 1790524800,
    short_users: 1,
    config_change_time: 1700000000,
    trade_size: 1,
    position_size: 0,
    long_users: 1,
    funding_impact_value: "60000",
    orders_limit: 50,
    trade_id: 1,
    orderbook_id: 1,
    enable_bonus: true,
    enable_credit: true,
    create_time: 1669688556,
    funding_cap_ratio: "0.75",
    status: "trading",
    launch_time: 1669688556,
    ...overrides,
    // As in the real 2023 contract rows, the indicative rate next to the current one.
    funding_rate_indicative: overrides.funding_rate_indicative ?? overrides.funding_rate ?? "0",
  };
}

/**
 * BTC_USDT 8h, ETH_USDT 1h, PEPE_USDT 4h and negative, DOGE_USDT 2h (ccxt's own interval table
 * has no 2h entry, so the raw seconds must be read), OLD_USDT in delisting. Numbers made up.
 */
export function gateRoutes(): ReplayRoute[] {
  const contracts = [
    gateContract("BTC_USDT", {
      mark_price: "84985.2",
      index_price: "84990.0",
      funding_rate: "0.000075",
      position_size: 120000000,
    }),
    gateContract("ETH_USDT", {
      quanto_multiplier: "0.01",
      mark_price: "2707.2",
      index_price: "2707.5",
      funding_rate: "0.00002",
      funding_interval: 3600,
      funding_next_apply: 1790517600,
      position_size: 30000000,
    }),
    gateContract("PEPE_USDT", {
      quanto_multiplier: "10000000",
      mark_price: "0.00001052",
      index_price: "0.00001053",
      funding_rate: "-0.00025",
      funding_interval: 14400,
      position_size: 500000,
    }),
    gateContract("DOGE_USDT", {
      quanto_multiplier: "10",
      mark_price: "0.2012",
      index_price: "0.2013",
      funding_rate: "0.00005",
      funding_interval: 7200,
      position_size: 4000000,
    }),
    gateContract("OLD_USDT", {
      quanto_multiplier: "1",
      mark_price: "1.5",
      index_price: "1.5",
      funding_rate: "0.0001",
      in_delisting: true,
    }),
  ];
  const ticker = (contract: string, last: string, volume: string, totalSize: string) => ({
    contract,
    last,
    volume_24h_quote: volume,
    volume_24h_settle: volume,
    total_size: totalSize,
  });
  const tickers = [
    ticker("BTC_USDT", "84985.0", "1500000000", "120000000"),
    ticker("PEPE_USDT", "0.00001052", "60000000", "500000"),
  ];
  return [
    { path: "/api/v4/futures/usdt/contracts", reply: { body: contracts } },
    { path: "/api/v4/futures/usdt/tickers", reply: { body: tickers } },
  ];
}

// ---------------------------------------------------------------------------------------------
// Hyperliquid — REAL metaAndAssetCtxs (BTC, ETH, SOL, HYPE) and predictedFundings (2026-09).

export function hyperliquidRoutes(): ReplayRoute[] {
  return [
    {
      method: "POST",
      path: "/info",
      body: { type: "metaAndAssetCtxs" },
      reply: { body: fixtureText("hyperliquid/metaAndAssetCtxs_2026-09_BTC-ETH-SOL-HYPE.json") },
    },
    {
      method: "POST",
      path: "/info",
      body: { type: "predictedFundings" },
      reply: { body: fixtureText("hyperliquid/predictedFundings_2026-09_BTC-ETH-HYPE-SOL.json") },
    },
  ];
}
