import { readFile } from "node:fs/promises";

const HOUR_MS = 3_600_000;
const HISTORY_FILE = new URL("./recordings/history/funding-history.json", import.meta.url);

/**
 * One recorded funding series as recordings/history/funding-history.json holds it: a market of the
 * sample, its venue's settlement interval, and the settlements at their real (UTC) times, the first
 * one absolute and each next one as the milliseconds after the one before (the venue's ms jitter
 * kept), with the rates exactly as the recording wrote them. Built by `npm run sample:history`.
 */
export interface RecordedSeries {
  exchange: string;
  market: string;
  base: string;
  intervalHours: number;
  /** The recording it was cut from (recordings/history/SOURCES.md). */
  source: string;
  first: number;
  gaps: number[];
  rates: number[];
}

export interface SampleHistoryFile {
  series: RecordedSeries[];
}

/** A settlement of the sample's history, placed on the sample's timeline. */
export interface SampleSettlement {
  exchange: string;
  market: string;
  base: string;
  time: number;
  rate: number;
  intervalHours: number;
}

/** The bundled recorded funding history, each series moved onto the timeline of a sample dated `asOf`. */
export async function readSampleHistory(asOf: number, file: URL = HISTORY_FILE): Promise<SampleSettlement[]> {
  const { series } = JSON.parse(await readFile(file, "utf8")) as SampleHistoryFile;
  return series.flatMap((s) => alignSeries(s, asOf));
}

/**
 * A series moved by a whole number of its intervals so its last settlement is the last one due at
 * or before `asOf`: the sample's other data is dated at its as-of, so its history ends there, as a
 * live install's would. Moving by whole intervals keeps the venue's settlement grid (Binance's
 * 00/08/16 UTC, KuCoin's 04/12/20), the spacing and jitter between settlements and every rate. Pure.
 */
export function alignSeries(series: RecordedSeries, asOf: number): SampleSettlement[] {
  const times: number[] = [series.first];
  for (const gap of series.gaps) times.push(times[times.length - 1]! + gap);
  const last = times[times.length - 1]!;
  const intervalMs = series.intervalHours * HOUR_MS;
  const shift = Math.floor((asOf - last) / intervalMs) * intervalMs;
  const { exchange, market, base, intervalHours } = series;
  return times.map((time, i) => ({ exchange, market, base, time: time + shift, rate: series.rates[i]!, intervalHours }));
}
