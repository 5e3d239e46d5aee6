// Every history venue's recorded answer widened to benchmark scale: hundreds of synthetic assets,
// each with a year of settlements at the recording's interval, answered page by page in the venue's
// own envelope and paging (tests/fixtures/history/SOURCES.md says where each shape comes from). The
// rows are the recording's rows with the asset, the time and the rate replaced; times keep the
// recording's phase (KuCoin 04/12/20 UTC) and jitter (Binance `…800002`, Extended a second late),
// rates cycle through the recording's, spread per asset. Nothing is held per row: a page is built
// from arithmetic when it is asked for, so the replay's memory does not grow with the year. A venue
// serving less than a year serves its own depth (OKX's 3 months, BitMart's latest 100 settlements);
// Paradex serves no settlements but observations every 5 s, whose funding index accrues each
// period's rate, so its reader aggregates them as it does the venue's.
import { VENUE_REGISTRY } from "@/lib/market/venues/venue-registry";
import type { VenueId } from "@/lib/market/model/types";
import type { HistoryIo, HistoryMarket, VenueHistoryReader } from "@/lib/history/history-types";
import { HISTORY_READERS, historyReader } from "@/lib/history/venues/history-readers";
import { aggregateObservations, type FundingObservation } from "@/lib/history/aggregate-observations";
import { historyJson as readJson, longSeries, type SeriesRow } from "@/tests/fixtures/history/read-history-fixture";
import { PARADEX_BTC_RECORDINGS, paradexRows } from "@/tests/fixtures/history/paradex-server";

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

type Row = Record<string, unknown>;

const recordings = new Map<string, unknown>();

/** A recorded answer, read once: every page of the replay is cut from it. */
function historyJson<T>(file: string): T {
  if (!recordings.has(file)) recordings.set(file, readJson(file));
  return recordings.get(file) as T;
}

/** The recorded rows a venue's series is cut from: their times (ascending) and rates as written. */
interface Recording {
  file: string;
  rows: SeriesRow[];
}

/** One venue's settlement times, the same for every asset: slot `i` at `start + i × interval + jitter`. */
export class SettlementSeries {
  readonly count: number;
  private readonly maxJitter: number;

  constructor(
    readonly start: number,
    end: number,
    readonly intervalMs: number,
    private readonly jitter: readonly number[],
  ) {
    this.count = Math.floor((end - start) / intervalMs) + 1;
    this.maxJitter = Math.max(0, ...jitter);
  }

  time(i: number): number {
    return this.start + i * this.intervalMs + this.jitter[i % this.jitter.length]!;
  }

  /** The first slot whose time is at or after `t` (count when none is). */
  firstFrom(t: number): number {
    let i = Math.max(0, Math.min(this.count, Math.ceil((t - this.start - this.maxJitter) / this.intervalMs)));
    while (i > 0 && this.time(i - 1) >= t) i--;
    while (i < this.count && this.time(i) < t) i++;
    return i;
  }

  /** Slots with times in [from, to], as [first, end) indices. */
  within(from: number, to: number): [number, number] {
    const lo = this.firstFrom(from);
    return [lo, Math.max(lo, this.firstFrom(to + 1))];
  }
}

/** How one venue answers: its market names, its series and one request's answer for asset `k`. */
export interface VenueReplay {
  reader: VenueHistoryReader;
  exchange: VenueId;
  intervalHours: number;
  /** The recording the rows and their shape come from (tests/fixtures/history/). */
  recorded: string;
  series: SettlementSeries;
  /** What the replay serves beyond settlements (Paradex's observations and their density), for the benchmark's output. */
  note?: string;
  market(base: string): HistoryMarket;
  /** The asset a request names (by its venue market id, in the URL or the body); undefined for one the venue does not list. */
  assetOf(url: URL, body: Row | undefined): number | undefined;
  answer(k: number, url: URL, body: Row | undefined): unknown;
}

const ZUSHEN = "longseries_BTCUSDT_2025-08-21_2026-08-21_zushen168.csv";

/** A recorded JSON page's rows as a series: `time` and `rate` picked by the caller. */
function jsonRows(file: string, rows: readonly Row[], time: (row: Row) => number, rate: (row: Row) => unknown): Recording {
  return { file, rows: rows.map((row) => ({ time: time(row), rate: String(rate(row)) })).sort((a, b) => a.time - b.time) };
}

/** Jitter is milliseconds to a second (FACTS.md): a time further off its slot is a recording's oddity, not kept. */
const MAX_JITTER_MS = 60_000;

/**
 * The recording's settlement grid: its most common whole-hour offset from the interval (KuCoin's
 * 04/12/20 UTC is 4 h off 8-hourly) and each time's jitter past its slot. A documented example's
 * made-up time (CoinEx's 07:28:51) votes for no offset and keeps no jitter.
 */
function phaseAndJitter(recording: Recording, intervalMs: number): { phase: number; jitter: number[] } {
  const counts = new Map<number, number>();
  for (const row of recording.rows) {
    const offset = row.time % intervalMs;
    const hour = Math.round(offset / HOUR) * HOUR;
    if (Math.abs(offset - hour) <= MAX_JITTER_MS) counts.set(hour % intervalMs, (counts.get(hour % intervalMs) ?? 0) + 1);
  }
  const phase = [...counts.entries()].sort((a, b) => b[1] - a[1] || a[0] - b[0])[0]?.[0] ?? 0;
  const jitter = recording.rows.map((row) => {
    const past = row.time - (phase + Math.round((row.time - phase) / intervalMs) * intervalMs);
    return past >= 0 && past < MAX_JITTER_MS ? past : 0;
  });
  return { phase, jitter };
}

/** A deterministic spread of each asset's rates around the recording's, both signs. */
function rateText(rates: readonly string[], k: number, i: number): string {
  const factor = ((k * 37) % 101) / 50 - 1; // −1 … +1
  const rate = Number(rates[i % rates.length]);
  return String(Number((rate * (1 + factor * 0.5) + factor * 0.00001).toPrecision(6)));
}

/** The sum of asset k's rates of slots [0, i): rates repeat every `rates.length` slots, so whole cycles are one product. */
function cycleSum(rates: readonly string[], k: number, i: number): number {
  const cycle = rates.map((_, j) => Number(rateText(rates, k, j)));
  const whole = cycle.reduce((sum, value) => sum + value, 0);
  return Math.floor(i / cycle.length) * whole + cycle.slice(0, i % cycle.length).reduce((sum, value) => sum + value, 0);
}

interface Definition {
  exchange: VenueId;
  intervalHours: number;
  /**
   * Why `intervalHours` is not one of the venue's settlement intervals when it is not: Deribit
   * settles nothing, and its reader serves the hourly accrual samples as 1 h settlements.
   */
  intervalStatedByReader?: string;
  /** The venue serves only its latest this many settlements (BitMart): the series is no longer. */
  servesLatest?: number;
  /** How long after a settlement the venue can first answer it (Paradex: its first observation past the boundary). */
  settledAfterMs?: () => number;
  note?: string;
  recording: () => Recording;
  venueMarketId(base: string): string;
  settle: "USDT" | "USDC" | "USD";
  assetOf(url: URL, body: Row | undefined): string;
  /** The answer to one request, given the rows of asset `k` in [lo, hi) it should hold, picked by `pick`. */
  answer(ctx: AnswerContext): unknown;
}

interface AnswerContext {
  url: URL;
  body: Row | undefined;
  series: SettlementSeries;
  /** Asset k's row i as the recorded row reads with time and rate replaced. */
  row(i: number): Row;
  /** Asset k's rate of settlement i, as the venue writes it. */
  rate(i: number): string;
  /** The sum of asset k's rates of settlements [0, i) (the rates cycle, so this is arithmetic too). */
  rateSum(i: number): number;
  /** Asset k's market id at the venue. */
  id: string;
  /** The replay's present: the venue answers nothing later. */
  end: number;
}

const param = (url: URL, key: string, fallback: number) => (url.searchParams.has(key) ? Number(url.searchParams.get(key)) : fallback);
const pathPart = (url: URL, index: number) => decodeURIComponent(url.pathname.split("/")[index] ?? "");
const MAX = Number.MAX_SAFE_INTEGER;
const isoParam = (url: URL, key: string, fallback: number) => (url.searchParams.has(key) ? Date.parse(url.searchParams.get(key)!) : fallback);
/** Epoch ms of GRVT's unix nanoseconds (a decimal string past a double's exact range). */
const nsParam = (value: unknown, fallback: number) => (typeof value === "string" ? Number(BigInt(value) / 1_000_000n) : fallback);

/** Indices [lo, hi) newest first. */
function newestFirst(lo: number, hi: number, limit: number): number[] {
  const out: number[] = [];
  for (let i = hi - 1; i >= lo && out.length < limit; i--) out.push(i);
  return out;
}

function ascending(lo: number, hi: number, limit: number): number[] {
  const out: number[] = [];
  for (let i = lo; i < hi && out.length < limit; i++) out.push(i);
  return out;
}

function binanceShaped(exchange: VenueId, templateFile: string, ratesFrom: () => Recording): Definition {
  const template = () => historyJson<Row[]>(`${exchange}/${templateFile}`)[0]!;
  return {
    exchange,
    intervalHours: 8,
    recording: ratesFrom,
    settle: "USDT",
    venueMarketId: (base) => `${base}USDT`,
    assetOf: (url) => url.searchParams.get("symbol") ?? "",
    answer: ({ url, series, row }) => {
      const recorded = template();
      const [lo, hi] = series.within(param(url, "startTime", 0), param(url, "endTime", MAX));
      return ascending(lo, hi, param(url, "limit", 100)).map((i) => ({ ...recorded, ...row(i) }));
    },
  };
}

const LIGHTER_FILE = "lighter/fundings_ETH_resolution-1h_nautilus-schema-fixture.json";
const DERIVE_FILE = "derive/get_funding_rate_history_BTC-PERP_2025-01-06.json";
const KRAKEN_FILE = "krakenfutures/historicalfundingrates_docs-example_2022-06-28.json";
const PACIFICA_FILE = "pacifica/funding_rate_history_BTC_limit3_2026-09-12T21_quoted3rows.json";

/** Lighter names markets by an integer id: each synthetic asset gets the next one, in the order first asked. */
const lighterIds = new Map<string, number>();
function lighterMarketId(base: string): string {
  if (!lighterIds.has(base)) lighterIds.set(base, lighterIds.size);
  return String(lighterIds.get(base));
}

/** Paradex writes an observation every 5 s (the recordings' rows are 5 s apart). */
const PARADEX_STEP_MS = 5_000;

/** The newest recorded Paradex row: the template of every observation and the index, price and phase they start from. */
function paradexTemplate(): Row {
  return historyJson<{ results: Row[] }>(PARADEX_BTC_RECORDINGS[0]).results[0]!;
}

/** Where the recording's observations fall on the 5 s grid: the first one this long after each boundary. */
function paradexPhase(): number {
  return Number(paradexTemplate().created_at) % PARADEX_STEP_MS;
}

function paradexObservation(row: Row): FundingObservation {
  const period = Number(row.funding_period_hours ?? 0);
  return {
    time: Number(row.created_at),
    fundingIndex: Number(row.funding_index),
    premium: Number(row.funding_premium),
    rate: Number(row.funding_rate),
    periodHours: period > 0 ? period : null,
  };
}

/**
 * Paradex `GET /v1/funding/data`: observations in [start_at, end_at], newest first, `page_size` a
 * page, `next` an offset while rows remain. The market is listed one period before its first
 * settlement. Each period's observations quote the rate settlement `slot` closes it with, and the
 * funding index accrues it linearly, premium = rate × the recording's price: the index delta over a
 * period, divided by that price, is the settlement's rate, as the venue's own accrual makes it.
 * Only the rows a request asks for are built.
 */
function paradexAnswer({ url, series, rate, rateSum, id, end }: AnswerContext): unknown {
  const template = paradexTemplate();
  const periodMs = series.intervalMs;
  const first = series.start - periodMs + paradexPhase();
  const price = Number(template.funding_premium) / Number(template.funding_rate);
  const startIndex = Number(template.funding_index);
  const lo = Math.ceil((Math.max(first, param(url, "start_at", 0)) - first) / PARADEX_STEP_MS);
  const hi = Math.floor((Math.min(end, param(url, "end_at", MAX)) - first) / PARADEX_STEP_MS);
  const total = Math.max(0, hi - lo + 1);
  const size = Math.min(param(url, "page_size", 1000), 5000);
  const offset = param(url, "cursor", 0);
  const results: Row[] = [];
  // A page's rows lie in one or two periods: each period's figures are worked out once.
  const periods = new Map<number, { rate: string; perPeriod: number; before: number; premium: string; rate8h: string }>();
  const periodOf = (slot: number) => {
    if (!periods.has(slot)) {
      const text = rate(slot);
      const perPeriod = Number(text);
      periods.set(slot, { rate: text, perPeriod, before: rateSum(slot), premium: String(perPeriod * price), rate8h: (Math.trunc(perPeriod * 1e8) / 1e8).toFixed(8) });
    }
    return periods.get(slot)!;
  };
  for (let m = hi - offset; m >= lo && results.length < size; m--) {
    const time = first + m * PARADEX_STEP_MS;
    const period = Math.floor((time - series.start) / periodMs);
    const figures = periodOf(period + 1);
    const index = startIndex + price * (figures.before + (figures.perPeriod * (time - (series.start + period * periodMs))) / periodMs);
    results.push({
      ...template,
      market: id,
      funding_index: String(index),
      funding_premium: figures.premium,
      funding_rate: figures.rate,
      funding_rate_8h: figures.rate8h,
      created_at: time,
    });
  }
  return { next: offset + size < total ? String(offset + size) : null, prev: null, results };
}

const DEFINITIONS: Definition[] = [
  {
    ...binanceShaped("binance", "fundingRate_BTCUSDT_limit2_2026-08-16.json", () => ({ file: `binance/${ZUSHEN}`, rows: longSeries(`binance/${ZUSHEN}`, "iso") })),
  },
  {
    ...binanceShaped("aster", "fundingRate_BTCUSDT_docs-example.json", () =>
      jsonRows("aster/fundingRate_BTCUSDT_docs-example.json", historyJson<Row[]>("aster/fundingRate_BTCUSDT_docs-example.json"), (r) => Number(r.fundingTime), (r) => r.fundingRate),
    ),
  },
  {
    exchange: "bybit",
    intervalHours: 8,
    recording: () => ({ file: `bybit/${ZUSHEN}`, rows: longSeries(`bybit/${ZUSHEN}`, "iso") }),
    settle: "USDT",
    venueMarketId: (base) => `${base}USDT`,
    assetOf: (url) => url.searchParams.get("symbol") ?? "",
    answer: ({ url, series, row }) => {
      const page = historyJson<{ result: Row; time: number } & Row>("bybit/funding_history_linear_BTCUSDT_limit2_2026-08-16.json");
      const end = param(url, "endTime", MAX);
      const [lo, hi] = series.within(0, end);
      const list = newestFirst(lo, hi, param(url, "limit", 200)).map((i) => ({ ...(page.result.list as Row[])[0], ...row(i) }));
      return { ...page, result: { ...page.result, list }, time: end };
    },
  },
  {
    exchange: "okx",
    intervalHours: 8,
    recording: () => {
      const file = "okx/funding-rate-history_BTC-USDT-SWAP_limit2_2026-08-16_fields-cut-upstream.json";
      return jsonRows(file, historyJson<{ data: Row[] }>(file).data, (r) => Number(r.fundingTime), (r) => r.fundingRate);
    },
    settle: "USDT",
    venueMarketId: (base) => `${base}-USDT-SWAP`,
    assetOf: (url) => url.searchParams.get("instId") ?? "",
    answer: ({ url, series, row }) => {
      const page = historyJson<{ data: Row[] } & Row>("okx/funding-rate-history_BTC-USDT-SWAP_limit2_2026-08-16_fields-cut-upstream.json");
      // `after` is exclusive: rows older than it.
      const [lo, hi] = series.within(0, param(url, "after", MAX) - 1);
      return { ...page, data: newestFirst(lo, hi, param(url, "limit", 100)).map((i) => ({ ...page.data[0], ...row(i) })) };
    },
  },
  {
    exchange: "bitget",
    intervalHours: 8,
    recording: () => {
      const file = "bitget/history-fund-rate_BTCUSDT_docs-example.json";
      return jsonRows(file, historyJson<{ data: Row[] }>(file).data, (r) => Number(r.fundingTime), (r) => r.fundingRate);
    },
    settle: "USDT",
    venueMarketId: (base) => `${base}USDT`,
    assetOf: (url) => url.searchParams.get("symbol") ?? "",
    answer: ({ url, series, row }) => {
      const page = historyJson<{ data: Row[] } & Row>("bitget/history-fund-rate_BTCUSDT_docs-example.json");
      const size = param(url, "pageSize", 20);
      const skip = (param(url, "pageNo", 1) - 1) * size;
      const data = newestFirst(0, series.count - skip, size).map((i) => ({ ...page.data[0], ...row(i) }));
      return { ...page, data };
    },
  },
  {
    exchange: "gate",
    intervalHours: 8,
    recording: () => {
      const file = "gate/longseries_BTC_USDT_2020-01-01_2023-12-31_supervik_utc.csv";
      return { file, rows: longSeries(file, "utc") };
    },
    settle: "USDT",
    venueMarketId: (base) => `${base}_USDT`,
    assetOf: (url) => url.searchParams.get("contract") ?? "",
    answer: ({ url, series, row }) => {
      const [lo, hi] = series.within(param(url, "from", 0) * 1000, param(url, "to", MAX / 1000) * 1000);
      return newestFirst(lo, hi, param(url, "limit", 100)).map(row);
    },
  },
  {
    exchange: "hyperliquid",
    intervalHours: 1,
    recording: () => {
      const file = "hyperliquid/fundingHistory_HYPE_2026-09_first48.json";
      return jsonRows(file, historyJson<Row[]>(file), (r) => Number(r.time), (r) => r.fundingRate);
    },
    settle: "USDC",
    venueMarketId: (base) => base,
    assetOf: (_url, body) => String(body?.coin ?? ""),
    answer: ({ body, series, row }) => {
      const template = historyJson<Row[]>("hyperliquid/fundingHistory_HYPE_2026-09_first48.json")[0];
      const [lo, hi] = series.within(Number(body?.startTime ?? 0), Number(body?.endTime ?? MAX));
      // About 500 rows an answer today (FACTS.md), ascending from startTime.
      return ascending(lo, hi, 500).map((i) => ({ ...template, ...row(i) }));
    },
  },
  {
    exchange: "dydx",
    intervalHours: 1,
    recording: () => {
      const file = "dydx/historicalFunding_BTC-USD_2025-12-08.json";
      return jsonRows(file, historyJson<{ historicalFunding: Row[] }>(file).historicalFunding, (r) => Date.parse(String(r.effectiveAt)), (r) => r.rate);
    },
    settle: "USDC",
    venueMarketId: (base) => `${base}-USD`,
    assetOf: (url) => pathPart(url, 3),
    answer: ({ url, series, row }) => {
      const page = historyJson<{ historicalFunding: Row[] }>("dydx/historicalFunding_BTC-USD_2025-12-08.json");
      const end = url.searchParams.has("effectiveBeforeOrAt") ? Date.parse(url.searchParams.get("effectiveBeforeOrAt")!) : MAX;
      const [lo, hi] = series.within(0, end);
      return { historicalFunding: newestFirst(lo, hi, param(url, "limit", 100)).map((i) => ({ ...page.historicalFunding[0], ...row(i) })) };
    },
  },
  {
    exchange: "extended",
    intervalHours: 1,
    recording: () => {
      const file = "extended/info_funding_BTC-USD_limit1_2026-04-30.json";
      return jsonRows(file, historyJson<{ data: Row[] }>(file).data, (r) => Number(r.T), (r) => r.f);
    },
    settle: "USDC",
    venueMarketId: (base) => `${base}-USD`,
    assetOf: (url) => pathPart(url, 4),
    answer: ({ url, series, row }) => {
      const page = historyJson<{ data: Row[]; pagination: Row } & Row>("extended/info_funding_BTC-USD_limit1_2026-04-30.json");
      const [lo, hi] = series.within(param(url, "startTime", 0), param(url, "endTime", MAX));
      const data = newestFirst(lo, hi, param(url, "limit", 1000)).map((i) => ({ ...page.data[0], ...row(i) }));
      return { ...page, data, pagination: { ...page.pagination, count: data.length } };
    },
  },
  {
    exchange: "mexc",
    intervalHours: 8,
    recording: () => {
      const file = "mexc/longseries_BTC_USDT_2021-01-01_2023-12-31_supervik_localtime.csv";
      return { file, rows: longSeries(file, "utc+3") };
    },
    settle: "USDT",
    venueMarketId: (base) => `${base}_USDT`,
    assetOf: (url) => url.searchParams.get("symbol") ?? "",
    // The envelope the supervik script read (FACTS.md): camelCase, newest first, by page number.
    answer: ({ url, series, row }) => {
      const size = param(url, "page_size", 20);
      const page = param(url, "page_num", 1);
      const resultList = newestFirst(0, series.count - (page - 1) * size, size).map(row);
      return { success: true, code: 0, data: { pageSize: size, totalCount: series.count, totalPage: Math.ceil(series.count / size), currentPage: page, resultList } };
    },
  },
  {
    exchange: "kucoinfutures",
    intervalHours: 8,
    recording: () => {
      const file = "kucoinfutures/longseries_XBTUSDTM_2021-01-01_2023-12-31_supervik_localtime.csv";
      return { file, rows: longSeries(file, "utc+3") };
    },
    settle: "USDT",
    venueMarketId: (base) => `${base}USDTM`,
    assetOf: (url) => url.searchParams.get("symbol") ?? "",
    answer: ({ url, series, row }) => {
      const page = historyJson<{ data: Row[] } & Row>("kucoinfutures/funding-rates_IDUSDTM_docs-example.json");
      const [lo, hi] = series.within(param(url, "from", 0), param(url, "to", MAX));
      // At most 100 rows, no pagination at all.
      return { ...page, data: newestFirst(lo, hi, 100).map(row) };
    },
  },
  {
    exchange: "htx",
    intervalHours: 8,
    recording: () => {
      const file = "htx/longseries_BTC-USDT_2021-01-01_2023-12-31_supervik_localtime.csv";
      return { file, rows: longSeries(file, "utc+3") };
    },
    settle: "USDT",
    venueMarketId: (base) => `${base}-USDT`,
    assetOf: (url) => url.searchParams.get("contract_code") ?? "",
    // The envelope the supervik script read (FACTS.md): snake_case, newest first, by page index.
    answer: ({ url, series, row }) => {
      const size = param(url, "page_size", 20);
      const page = param(url, "page_index", 1);
      const data = newestFirst(0, series.count - (page - 1) * size, size).map(row);
      return { status: "ok", data: { total_page: Math.ceil(series.count / size), current_page: page, total_size: series.count, data }, ts: 0 };
    },
  },
  {
    exchange: "coinex",
    intervalHours: 8,
    recording: () => {
      const file = "coinex/funding-rate-history_docs-example.json";
      return jsonRows(file, historyJson<{ data: Row[] }>(file).data, (r) => Number(r.funding_time), (r) => r.actual_funding_rate);
    },
    settle: "USDT",
    venueMarketId: (base) => `${base}USDT`,
    assetOf: (url) => url.searchParams.get("market") ?? "",
    answer: ({ url, series, row }) => {
      const page = historyJson<{ data: Row[]; pagination: Row } & Row>("coinex/funding-rate-history_docs-example.json");
      const [lo, hi] = series.within(param(url, "start_time", 0), param(url, "end_time", MAX));
      const size = param(url, "limit", 100);
      const skip = (param(url, "page", 1) - 1) * size;
      const data = newestFirst(lo, hi - skip, size).map((i) => ({ ...page.data[0], ...row(i) }));
      return { ...page, data, pagination: { has_next: hi - skip - size > lo } };
    },
  },
  {
    exchange: "bitmex",
    intervalHours: 8,
    recording: () => {
      const file = "bitmex/funding_ETHXBT_ccxt-comment-example.json";
      return jsonRows(file, historyJson<Row[]>(file), (r) => Date.parse(String(r.timestamp)), (r) => r.fundingRate);
    },
    settle: "USDT",
    venueMarketId: (base) => `${base}USDT`,
    assetOf: (url) => url.searchParams.get("symbol") ?? "",
    // A bare array, oldest first unless `reverse=true`, at most `count` (500) rows in [startTime, endTime], ISO times.
    answer: ({ url, series, row }) => {
      const template = historyJson<Row[]>("bitmex/funding_ETHXBT_ccxt-comment-example.json")[0];
      const [lo, hi] = series.within(isoParam(url, "startTime", 0), isoParam(url, "endTime", MAX));
      const count = Math.min(param(url, "count", 100), 500);
      const indices = url.searchParams.get("reverse") === "true" ? newestFirst(lo, hi, count) : ascending(lo, hi, count);
      return indices.map((i) => ({ ...template, ...row(i) }));
    },
  },
  {
    exchange: "woo",
    intervalHours: 8,
    recording: () => {
      const file = "woo/fundingRateHistory_PERP_BTC_USDT_page1_2025-07-04.json";
      return jsonRows(file, historyJson<{ data: { rows: Row[] } }>(file).data.rows, (r) => Number(r.fundingRateTimestamp), (r) => r.fundingRate);
    },
    settle: "USDT",
    venueMarketId: (base) => `PERP_${base}_USDT`,
    assetOf: (url) => url.searchParams.get("symbol") ?? "",
    // Pages by number within [startTime, endTime], newest first (the recorded page 1 holds the latest settlement); `meta.total` counts the range.
    answer: ({ url, series, row }) => {
      const page = historyJson<{ data: { rows: Row[] } } & Row>("woo/fundingRateHistory_PERP_BTC_USDT_page1_2025-07-04.json");
      const [lo, hi] = series.within(param(url, "startTime", 0), param(url, "endTime", MAX));
      const size = param(url, "size", 25);
      const current = param(url, "page", 1);
      const rows = newestFirst(lo, hi - (current - 1) * size, size).map((i) => ({ ...page.data.rows[0], ...row(i) }));
      return { ...page, data: { rows, meta: { total: hi - lo, recordsPerPage: size, currentPage: current } } };
    },
  },
  {
    exchange: "phemex",
    intervalHours: 8,
    recording: () => {
      const file = "phemex/funding-rate-history_BTCUSDTFR8H_ccxt-comment-example.json";
      return jsonRows(file, historyJson<{ data: { rows: Row[] } }>(file).data.rows, (r) => Number(r.fundingTime), (r) => r.fundingRate);
    },
    settle: "USDT",
    venueMarketId: (base) => `${base}USDT`,
    // History is filed under the funding-rate symbol `.<id>FR8H`.
    assetOf: (url) => (url.searchParams.get("symbol") ?? "").replace(/^\./, "").replace(/FR8H$/, ""),
    // Ascending from `start` (inclusive) up to `end`, at most `limit` 100; the USDT example writes every field as a string.
    answer: ({ url, series, row }) => {
      const page = historyJson<{ data: { rows: Row[] } } & Row>("phemex/funding-rate-history_BTCUSDTFR8H_ccxt-comment-example.json");
      const [lo, hi] = series.within(param(url, "start", 0), param(url, "end", MAX));
      const rows = ascending(lo, hi, Math.min(param(url, "limit", 100), 100)).map((i) => ({ ...page.data.rows[0], ...row(i) }));
      return { ...page, data: { ...page.data, rows } };
    },
  },
  {
    exchange: "bingx",
    intervalHours: 8,
    recording: () => {
      const file = "bingx/fundingRate_QNT-USDT_docs-example.json";
      return jsonRows(file, historyJson<{ data: Row[] }>(file).data, (r) => Number(r.fundingTime), (r) => r.fundingRate);
    },
    settle: "USDT",
    venueMarketId: (base) => `${base}-USDT`,
    assetOf: (url) => url.searchParams.get("symbol") ?? "",
    // Newest first, at most `limit` 1000 rows in [startTime, endTime].
    answer: ({ url, series, row }) => {
      const page = historyJson<{ data: Row[] } & Row>("bingx/fundingRate_QNT-USDT_docs-example.json");
      const [lo, hi] = series.within(param(url, "startTime", 0), param(url, "endTime", MAX));
      return { ...page, data: newestFirst(lo, hi, Math.min(param(url, "limit", 100), 1000)).map((i) => ({ ...page.data[0], ...row(i) })) };
    },
  },
  {
    exchange: "deribit",
    intervalHours: 1,
    intervalStatedByReader: "Deribit accrues continuously; its reader serves the hourly `interest_1h` samples as 1 h settlements",
    recording: () => {
      const file = "deribit/get_funding_rate_history_BTC-PERPETUAL_docs-example.json";
      return jsonRows(file, historyJson<{ result: Row[] }>(file).result, (r) => Number(r.timestamp), (r) => r.interest_1h);
    },
    settle: "USDC",
    venueMarketId: (base) => `${base}_USDC-PERPETUAL`,
    assetOf: (url) => url.searchParams.get("instrument_name") ?? "",
    // One row an hour in [start_timestamp, end_timestamp], ascending, never more than the 744 ccxt saw;
    // `interest_8h` is the trailing 8 hours' accrual, the sum of the last eight `interest_1h`.
    answer: ({ url, series, row, rate }) => {
      const page = historyJson<{ result: Row[] } & Row>("deribit/get_funding_rate_history_BTC-PERPETUAL_docs-example.json");
      const [lo, hi] = series.within(param(url, "start_timestamp", 0), param(url, "end_timestamp", MAX));
      const hourly = (i: number) => (i < 0 ? 0 : Number(rate(i)));
      // The trailing sum slides along the ascending rows: one rate added and one dropped a row.
      let trailing = Array.from({ length: 8 }, (_, j) => hourly(lo - 1 - j)).reduce((sum, r) => sum + r, 0);
      const result = ascending(lo, hi, 744).map((i) => {
        trailing += hourly(i) - hourly(i - 8);
        return { ...page.result[0], ...row(i), interest_8h: trailing };
      });
      return { ...page, result };
    },
  },
  {
    exchange: "bitmart",
    intervalHours: 8,
    servesLatest: 100,
    recording: () => {
      const file = "bitmart/funding-rate-history_BTCUSDT_docs-example.json";
      return jsonRows(file, historyJson<{ data: { list: Row[] } }>(file).data.list, (r) => Number(r.funding_time), (r) => r.funding_rate);
    },
    settle: "USDT",
    venueMarketId: (base) => `${base}USDT`,
    assetOf: (url) => url.searchParams.get("symbol") ?? "",
    // No time bound, no page: the latest `limit` (at most 100) settlements, newest first.
    answer: ({ url, series, row }) => {
      const page = historyJson<{ data: { list: Row[] } } & Row>("bitmart/funding-rate-history_BTCUSDT_docs-example.json");
      const list = newestFirst(0, series.count, Math.min(param(url, "limit", 100), 100)).map((i) => ({ ...page.data.list[0], ...row(i) }));
      return { ...page, data: { ...page.data, list } };
    },
  },
  {
    exchange: "paradex",
    intervalHours: 8,
    settledAfterMs: paradexPhase,
    note:
      `observations every ${PARADEX_STEP_MS / 1000} s as recorded (index accruing each period's rate), built only for the rows a request asks: ` +
      "one row before each page and the 30 s window after each boundary",
    recording: () => ({
      file: `${PARADEX_BTC_RECORDINGS[0]} + ${PARADEX_BTC_RECORDINGS.length - 1} boundary recordings, aggregated`,
      rows: aggregateObservations(paradexRows().map(paradexObservation)).map((s) => ({ time: s.time, rate: String(s.rate) })),
    }),
    settle: "USDC",
    venueMarketId: (base) => `${base}-USD-PERP`,
    assetOf: (url) => url.searchParams.get("market") ?? "",
    answer: paradexAnswer,
  },
  {
    exchange: "backpack",
    intervalHours: 1,
    recording: () => {
      // The newest recorded row is the interval still running: only the settled one is a settlement.
      const file = "backpack/fundingRates_BTC_USDC_PERP_2026-09-23T03-23_pasted2rows.json";
      return jsonRows(file, historyJson<Row[]>(file).slice(1), (r) => Date.parse(`${String(r.intervalEndTimestamp)}Z`), (r) => r.fundingRate);
    },
    settle: "USDC",
    venueMarketId: (base) => `${base}_USDC_PERP`,
    assetOf: (url) => url.searchParams.get("symbol") ?? "",
    // Newest first from `offset`, `limit` rows, led by the interval still running (its end after now, its rate the estimate).
    answer: ({ url, series, row }) => {
      const newest = series.count; // the running interval: one slot past the last settlement
      const offset = param(url, "offset", 0);
      return newestFirst(0, newest + 1 - offset, Math.min(param(url, "limit", 100), 1000)).map(row);
    },
  },
  {
    exchange: "grvt",
    intervalHours: 8,
    recording: () => {
      const file = "grvt/funding_BTC_USDT_Perp_docs-example.json";
      return jsonRows(file, historyJson<{ result: Row[] }>(file).result, (r) => Number(BigInt(String(r.funding_time)) / 1_000_000n), (r) => r.funding_rate);
    },
    settle: "USDT",
    venueMarketId: (base) => `${base}_USDT_Perp`,
    assetOf: (_url, body) => String(body?.instrument ?? ""),
    // Newest first from end_time back to start_time (ns strings), `limit` rows and an opaque `next` cursor.
    answer: ({ body, series, row }) => {
      const page = historyJson<{ result: Row[] } & Row>("grvt/funding_BTC_USDT_Perp_docs-example.json");
      const [lo, top] = series.within(nsParam(body?.start_time, 0), nsParam(body?.end_time, MAX));
      const hi = typeof body?.cursor === "string" && body.cursor !== "" ? Math.min(top, series.firstFrom(Number(Buffer.from(body.cursor, "base64").toString()))) : top;
      const limit = Math.min(Number(body?.limit ?? 500), 1000);
      const indices = newestFirst(lo, hi, limit);
      const oldest = indices.at(-1);
      const more = indices.length === limit && oldest !== undefined && oldest > lo;
      return { result: indices.map((i) => ({ ...page.result[0], ...row(i) })), next: more ? Buffer.from(String(series.time(oldest))).toString("base64") : "" };
    },
  },
  {
    exchange: "lighter",
    intervalHours: 1,
    recording: () => {
      const file = LIGHTER_FILE;
      // The rate as a signed percent: the row's magnitude with the sign of the side that paid.
      return jsonRows(file, historyJson<{ fundings: Row[] }>(file).fundings, (r) => Number(r.timestamp) * 1000, (r) => `${r.direction === "short" ? "-" : ""}${String(r.rate)}`);
    },
    settle: "USDC",
    venueMarketId: lighterMarketId,
    assetOf: (url) => url.searchParams.get("market_id") ?? "",
    // Rows in [start_timestamp, end_timestamp] (seconds), topped up with older ones to count_back,
    // at most 750, ascending (tests/fixtures/history/SOURCES.md, Lighter).
    answer: ({ url, series, row }) => {
      const page = historyJson<{ fundings: Row[] } & Row>(LIGHTER_FILE);
      const [lo, hi] = series.within(param(url, "start_timestamp", 0) * 1000, param(url, "end_timestamp", MAX / 1000) * 1000);
      const count = Math.min(750, Math.max(hi - lo, param(url, "count_back", 0)));
      return { ...page, fundings: ascending(Math.max(0, hi - count), hi, count).map((i) => ({ ...page.fundings[0], ...row(i) })) };
    },
  },
  {
    exchange: "derive",
    intervalHours: 1,
    recording: () => {
      const file = DERIVE_FILE;
      return jsonRows(file, historyJson<{ result: { funding_rate_history: Row[] } }>(file).result.funding_rate_history, (r) => Number(r.timestamp), (r) => r.funding_rate);
    },
    settle: "USDC",
    venueMarketId: (base) => `${base}-PERP`,
    assetOf: (_url, body) => String(body?.instrument_name ?? ""),
    // Every row of [start_timestamp, end_timestamp] (ms), no page; nothing at all for a window of 30
    // days or more (lib/history/venues/derive.ts).
    answer: ({ body, series, row }) => {
      const page = historyJson<{ result: { funding_rate_history: Row[] } } & Row>(DERIVE_FILE);
      const start = Number(body?.start_timestamp ?? 0);
      const end = Number(body?.end_timestamp ?? MAX);
      const [lo, hi] = end - start >= 30 * DAY ? [0, 0] : series.within(start, end);
      return { ...page, result: { funding_rate_history: ascending(lo, hi, MAX).map((i) => ({ ...page.result.funding_rate_history[0], ...row(i) })) } };
    },
  },
  {
    exchange: "krakenfutures",
    intervalHours: 1,
    recording: () => {
      const file = KRAKEN_FILE;
      return jsonRows(file, historyJson<{ rates: Row[] }>(file).rates, (r) => Date.parse(String(r.timestamp)), (r) => r.relativeFundingRate);
    },
    settle: "USD",
    venueMarketId: (base) => `PF_${base}USD`,
    assetOf: (url) => url.searchParams.get("symbol") ?? "",
    // No parameter but the symbol: the whole history, ascending. The absolute rate keeps the
    // recording's ratio to the relative one (the contract's value), though no reader reads it.
    answer: ({ series, row }) => {
      const page = historyJson<{ rates: Row[] } & Row>(KRAKEN_FILE);
      const template = page.rates[0]!;
      const perRelative = Number(template.fundingRate) / Number(template.relativeFundingRate);
      const rates = ascending(0, series.count, MAX).map((i) => {
        const fields = row(i);
        return { ...template, ...fields, fundingRate: Number(fields.relativeFundingRate) * perRelative };
      });
      return { ...page, rates };
    },
  },
  {
    exchange: "pacifica",
    intervalHours: 1,
    recording: () => {
      // The settled rate is each row's next_funding_rate (lib/history/venues/pacifica.ts).
      const file = PACIFICA_FILE;
      return jsonRows(file, historyJson<Row[]>(file), (r) => Number(r.created_at), (r) => r.next_funding_rate);
    },
    settle: "USDC",
    venueMarketId: (base) => base,
    assetOf: (url) => url.searchParams.get("symbol") ?? "",
    // Newest first, `limit` (at most 4000) rows from the cursor (here an offset, opaque to the
    // reader), `has_more` while older rows remain; no time parameter. Each row's funding_rate is
    // the settlement an hour older, as recorded.
    answer: ({ url, series, row, rate }) => {
      const template = historyJson<Row[]>(PACIFICA_FILE)[0]!;
      const offset = Number(url.searchParams.get("cursor") ?? 0);
      const limit = Math.min(param(url, "limit", 100), 4000);
      const indices = newestFirst(0, series.count - offset, limit);
      const data = indices.map((i) => ({ ...template, ...row(i), funding_rate: i > 0 ? rate(i - 1) : template.funding_rate }));
      const more = offset + indices.length < series.count;
      return { success: true, data, next_cursor: more ? String(offset + indices.length) : null, has_more: more };
    },
  },
];

/** How each venue writes a row's time and rate (the fields a recorded row's are replaced in). */
const ROW_FIELDS: Partial<Record<VenueId, (time: number, rate: string, id: string, intervalHours: number) => Row>> = {
  binance: (time, rate, id) => ({ symbol: id, fundingTime: time, fundingRate: rate }),
  aster: (time, rate, id) => ({ symbol: id, fundingTime: time, fundingRate: rate }),
  bybit: (time, rate, id) => ({ symbol: id, fundingRate: rate, fundingRateTimestamp: String(time) }),
  okx: (time, rate, id) => ({ instId: id, fundingTime: String(time), fundingRate: rate }),
  bitget: (time, rate, id) => ({ symbol: id, fundingTime: String(time), fundingRate: rate }),
  gate: (time, rate) => ({ t: time / 1000, r: rate }),
  hyperliquid: (time, rate, id) => ({ coin: id, time, fundingRate: rate }),
  dydx: (time, rate, id) => ({ ticker: id, rate, effectiveAt: new Date(time).toISOString() }),
  extended: (time, rate, id) => ({ m: id, T: time, f: rate }),
  mexc: (time, rate, id) => ({ symbol: id, fundingRate: Number(rate), settleTime: time }),
  kucoinfutures: (time, rate, id) => ({ symbol: id, fundingRate: Number(rate), timepoint: time }),
  htx: (time, rate, id) => ({ symbol: id.split("-")[0], contract_code: id, fee_asset: "USDT", funding_time: String(time), funding_rate: rate }),
  coinex: (time, rate, id) => ({ market: id, funding_time: time, actual_funding_rate: rate, theoretical_funding_rate: rate }),
  // The interval as a time on 2000-01-01; the daily rate scaled from it.
  bitmex: (time, rate, id, hours) => ({
    timestamp: new Date(time).toISOString(),
    symbol: id,
    fundingInterval: new Date(Date.UTC(2000, 0, 1) + hours * HOUR).toISOString(),
    fundingRate: Number(rate),
    fundingRateDaily: Number(rate) * (24 / hours),
  }),
  woo: (time, rate, id, hours) => ({ symbol: id, fundingRate: rate, fundingRateTimestamp: time, nextFundingTime: time + hours * HOUR }),
  phemex: (time, rate, id, hours) => ({ symbol: `.${id}FR8H`, fundingRate: rate, fundingTime: String(time), intervalSeconds: String(hours * 3600) }),
  bingx: (time, rate, id) => ({ symbol: id, fundingRate: rate, fundingTime: time }),
  deribit: (time, rate) => ({ timestamp: time, interest_1h: Number(rate) }),
  bitmart: (time, rate, id) => ({ symbol: id, funding_rate: rate, funding_time: String(time) }),
  // Zone-less UTC, no milliseconds, as Backpack writes it.
  backpack: (time, rate, id) => ({ fundingRate: rate, intervalEndTimestamp: new Date(time).toISOString().slice(0, 19), symbol: id }),
  // Nanoseconds as a string; the rate in percentage points as recorded.
  grvt: (time, rate, id, hours) => ({
    instrument: id,
    funding_rate: Number(rate),
    funding_time: `${time}000000`,
    funding_rate_8_h_avg: Number(rate) * (8 / hours),
    funding_interval_hours: hours,
  }),
  // Percent, unsigned, the sign in the side that paid.
  lighter: (time, rate) => ({ timestamp: time / 1000, rate: rate.replace(/^-/, ""), direction: rate.startsWith("-") ? "short" : "long" }),
  derive: (time, rate) => ({ timestamp: time, funding_rate: rate }),
  krakenfutures: (time, rate) => ({ timestamp: new Date(time).toISOString(), relativeFundingRate: Number(rate) }),
  pacifica: (time, rate) => ({ next_funding_rate: rate, created_at: time }),
};

/**
 * The replays of every venue with a history reader: `assets` synthetic assets each, a settlement
 * series from `start` to `end` (a venue serving less, OKX's 3 months, from its own depth on).
 */
export function historyReplays(options: { bases: readonly string[]; start: number; end: number; venues?: readonly string[] }): VenueReplay[] {
  return DEFINITIONS.filter((d) => !options.venues || options.venues.includes(d.exchange)).map((definition) => {
    const reader = historyReader(definition.exchange);
    if (!reader) throw new Error(`${definition.exchange} has no history reader`);
    if (!VENUE_REGISTRY[definition.exchange].intervalsHours.includes(definition.intervalHours) && !definition.intervalStatedByReader) {
      throw new Error(`${definition.exchange}: ${definition.intervalHours} h is not one of its intervals`);
    }
    const recording = definition.recording();
    const intervalMs = definition.intervalHours * HOUR;
    const { phase, jitter } = phaseAndJitter(recording, intervalMs);
    const depth = reader.limits.maxDepthDays;
    const from = depth === null ? options.start : Math.max(options.start, options.end - depth * DAY);
    const first = phase + Math.ceil((from - phase) / intervalMs) * intervalMs;
    const last = options.end - Math.max(...jitter) - (definition.settledAfterMs?.() ?? 0);
    const all = new SettlementSeries(first, last, intervalMs, jitter);
    // A venue serving only its latest settlements: the series starts where what it serves does.
    const latest = definition.servesLatest === undefined ? 0 : Math.max(0, all.count - definition.servesLatest);
    const series = latest === 0 ? all : new SettlementSeries(first + latest * intervalMs, last, intervalMs, jitter);
    const rates = recording.rows.map((row) => row.rate);
    const index = new Map(options.bases.map((base, k) => [definition.venueMarketId(base), k]));
    const fields = ROW_FIELDS[definition.exchange];
    return {
      reader,
      exchange: definition.exchange,
      intervalHours: definition.intervalHours,
      recorded: recording.file,
      series,
      note: definition.note,
      market: (base) => ({ exchange: definition.exchange, market: `${base}/${definition.settle}:${definition.settle}`, venueMarketId: definition.venueMarketId(base), base }),
      assetOf: (url, body) => index.get(definition.assetOf(url, body)),
      answer(k, url, body) {
        const id = definition.venueMarketId(options.bases[k]!);
        const rate = (i: number) => rateText(rates, k, i);
        return definition.answer({
          url,
          body,
          series,
          id,
          end: options.end,
          rate,
          rateSum: (i) => cycleSum(rates, k, i),
          row: (i) => {
            if (!fields) throw new Error(`${definition.exchange} replay writes its own rows`);
            return fields(series.time(i), rate(i), id, definition.intervalHours);
          },
        });
      },
    };
  });
}

/** The venues with a history reader that no replay answers yet (the benchmark names them rather than skip them silently). */
export function unreplayedVenues(): string[] {
  return HISTORY_READERS.map((reader) => reader.exchange).filter((exchange) => !DEFINITIONS.some((d) => d.exchange === exchange));
}

/** Time spent building answers (and reading their text back), per replay. */
export interface ReplayIo extends HistoryIo {
  requests: number;
  answerMs: number;
}

/**
 * The replay as the reader's network: each answer goes out as JSON text and is read back with
 * JSON.parse, as the HTTP client reads a venue's body. A market the venue does not list is a 404.
 */
export function replayIo(replay: VenueReplay): ReplayIo {
  const io: ReplayIo = {
    requests: 0,
    answerMs: 0,
    getJson: async (url) => serve(url, undefined),
    postJson: async (url, body) => serve(url, body as Row),
  };
  function serve(href: string, body: Row | undefined): unknown {
    const started = performance.now();
    io.requests += 1;
    const url = new URL(href);
    const k = replay.assetOf(url, body);
    if (k === undefined) throw new Error(`${replay.exchange} replay: no market in ${href}`);
    const parsed: unknown = JSON.parse(JSON.stringify(replay.answer(k, url, body)));
    io.answerMs += performance.now() - started;
    return parsed;
  }
  return io;
}
