// npm run sample:history -- <dir> — writes lib/market/sample/recordings/history/funding-history.json,
// the offline sample's recorded funding history: the last DAYS days of each long series below, read
// from <dir> (a copy of the shared recordings, laid out <venue>/<file>.csv as recordings/history/SOURCES.md
// names them). Times become UTC epoch ms (the supervik "localtime" files are UTC+3: 3 h are taken off);
// rates are kept as the files write them. The series must be evenly spaced at the stated interval
// (ms jitter aside), or the build fails: the sample states one interval per series.
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { RecordedSeries, SampleHistoryFile } from "@/lib/market/sample/sample-history";

const DAYS = 45;
const HOUR_MS = 3_600_000;
/** Settlement times in the files carry up to a few ms of the venue's jitter; a gap may be off by this much. */
const JITTER_MS = 1_000;

interface SeriesSpec {
  exchange: string;
  market: string;
  base: string;
  intervalHours: number;
  file: string;
  /** Hours to take off the file's times to read them as UTC. */
  utcOffsetHours: number;
}

const SPECS: SeriesSpec[] = [
  { exchange: "binance", market: "BTC/USDT:USDT", base: "BTC", intervalHours: 8, file: "binance/longseries_BTCUSDT_2025-08-21_2026-08-21_zushen168.csv", utcOffsetHours: 0 },
  { exchange: "binance", market: "ETH/USDT:USDT", base: "ETH", intervalHours: 8, file: "binance/longseries_ETHUSDT_2025-08-21_2026-08-21_zushen168.csv", utcOffsetHours: 0 },
  { exchange: "bybit", market: "BTC/USDT:USDT", base: "BTC", intervalHours: 8, file: "bybit/longseries_BTCUSDT_2025-08-21_2026-08-21_zushen168.csv", utcOffsetHours: 0 },
  { exchange: "bybit", market: "ETH/USDT:USDT", base: "ETH", intervalHours: 8, file: "bybit/longseries_ETHUSDT_2025-08-21_2026-08-21_zushen168.csv", utcOffsetHours: 0 },
  { exchange: "hyperliquid", market: "BTC/USDC:USDC", base: "BTC", intervalHours: 1, file: "hyperliquid/longseries_BTC_2025-08-21_2026-08-22_zushen168.csv", utcOffsetHours: 0 },
  { exchange: "hyperliquid", market: "ETH/USDC:USDC", base: "ETH", intervalHours: 1, file: "hyperliquid/longseries_ETH_2025-08-21_2026-08-22_zushen168.csv", utcOffsetHours: 0 },
  { exchange: "gate", market: "BTC/USDT:USDT", base: "BTC", intervalHours: 8, file: "gate/longseries_BTC_USDT_2020-01-01_2023-12-31_supervik_utc.csv", utcOffsetHours: 0 },
  { exchange: "dydx", market: "BTC/USDC:USDC", base: "BTC", intervalHours: 1, file: "dydx/longseries_v3_BTC-USD_2022-01-01_2023-12-31_supervik_utc.csv", utcOffsetHours: 0 },
  { exchange: "htx", market: "BTC/USDT:USDT", base: "BTC", intervalHours: 8, file: "htx/longseries_BTC-USDT_2021-01-01_2023-12-31_supervik_localtime.csv", utcOffsetHours: 3 },
  { exchange: "kucoinfutures", market: "BTC/USDT:USDT", base: "BTC", intervalHours: 8, file: "kucoinfutures/longseries_XBTUSDTM_2021-01-01_2023-12-31_supervik_localtime.csv", utcOffsetHours: 3 },
  { exchange: "mexc", market: "BTC/USDT:USDT", base: "BTC", intervalHours: 8, file: "mexc/longseries_BTC_USDT_2021-01-01_2023-12-31_supervik_localtime.csv", utcOffsetHours: 3 },
];

/** Epoch ms of a file's time: ISO 8601 with an offset (ZuShen168), or "YYYY-MM-DD HH:MM:SS[.mmm]" at `utcOffsetHours` (supervik). */
function parseTime(text: string, utcOffsetHours: number): number {
  const ms = /[+-]\d\d:\d\d$|Z$/.test(text) ? Date.parse(text) : Date.parse(`${text.replace(" ", "T")}Z`) - utcOffsetHours * HOUR_MS;
  if (!Number.isFinite(ms)) throw new Error(`unreadable time ${text}`);
  return ms;
}

function readSeries(dir: string, spec: SeriesSpec): RecordedSeries {
  const [header, ...lines] = readFileSync(path.join(dir, spec.file), "utf8").trim().split(/\r?\n/);
  const columns = header!.split(",");
  const timeColumn = columns.findIndex((c) => c === "settlement_ts" || c === "Date");
  const rateColumn = columns.findIndex((c) => c === "rate_raw" || c === "Funding Rate");
  const rows = lines
    .map((line) => line.split(","))
    .map((cells) => ({ time: parseTime(cells[timeColumn]!, spec.utcOffsetHours), rate: Number(cells[rateColumn]) }))
    .sort((a, b) => a.time - b.time);
  const last = rows[rows.length - 1]!.time;
  const kept = rows.filter((r) => r.time > last - DAYS * 24 * HOUR_MS);
  const gaps = kept.slice(1).map((r, i) => r.time - kept[i]!.time);
  const intervalMs = spec.intervalHours * HOUR_MS;
  const uneven = gaps.findIndex((gap) => Math.abs(gap - intervalMs) > JITTER_MS);
  if (uneven >= 0) throw new Error(`${spec.file}: ${gaps[uneven]} ms between settlements at ${new Date(kept[uneven]!.time).toISOString()}, not ${spec.intervalHours} h`);
  if (kept.some((r) => !Number.isFinite(r.rate))) throw new Error(`${spec.file}: a rate is not a number`);
  return {
    exchange: spec.exchange,
    market: spec.market,
    base: spec.base,
    intervalHours: spec.intervalHours,
    source: spec.file,
    first: kept[0]!.time,
    gaps,
    rates: kept.map((r) => r.rate),
  };
}

const dir = process.argv[2];
if (!dir) throw new Error("usage: npm run sample:history -- <directory of the recorded long series>");
const file: SampleHistoryFile = { series: SPECS.map((spec) => readSeries(dir, spec)) };
const out = new URL("../lib/market/sample/recordings/history/funding-history.json", import.meta.url);
// One series a line: small, and a rebuild's diff shows which series changed.
writeFileSync(out, `{"series":[\n${file.series.map((s) => JSON.stringify(s)).join(",\n")}\n]}\n`);
for (const s of file.series) {
  const end = s.first + s.gaps.reduce((a, b) => a + b, 0);
  console.log(`${s.exchange} ${s.market}: ${s.rates.length} settlements ${new Date(s.first).toISOString()} → ${new Date(end).toISOString()}`);
}
console.log(`Wrote ${out.pathname}`);
