import { toFundingSettlement, type FundingSettlement } from "../model/funding-settlement";
import { sandboxHours, sandboxListings, type SandboxHour } from "./sandbox-hourly-funding";

const HOUR_MS = 3_600_000;
/** How far back the sandbox's settlement history reaches. */
export const SANDBOX_HISTORY_HOURS = 7 * 24;

interface History {
  hour: number;
  /** By `exchange|symbol`, oldest first. */
  bySymbol: Map<string, FundingSettlement[]>;
}

const settlementsAt = new Map<number, FundingSettlement[]>();
let current: History | undefined;

/**
 * The sandbox's funding settlements over the last 7 days before `at`, derived from the generator
 * as a live round derives them: every venue interval is a whole number of hours, so each hour's
 * settlements are the markets whose next funding time is that hour, at the rate they quoted the
 * minute before (sandbox-hourly-funding.ts). The stale venue settles nothing (it is not being
 * observed). Each hour is derived once per process and the 7-day window slides hour by hour.
 */
export function sandboxFundingHistory(at: Date): Map<string, FundingSettlement[]> {
  const hour = Math.floor(at.getTime() / HOUR_MS) * HOUR_MS;
  if (current?.hour === hour) return current.bySymbol;
  const first = hour - (SANDBOX_HISTORY_HOURS - 1) * HOUR_MS;
  for (const cached of settlementsAt.keys()) if (cached < first || cached > hour) settlementsAt.delete(cached);
  // The settlements at `first` … `hour` are at the ends of the 168 hours before `hour`.
  const samples = sandboxHours(hour, SANDBOX_HISTORY_HOURS);
  const bySymbol = new Map<string, FundingSettlement[]>();
  for (const sample of samples) {
    const h = sample.hour + HOUR_MS;
    let rows = settlementsAt.get(h);
    if (!rows) {
      rows = settlementsOfHour(h, sample);
      settlementsAt.set(h, rows);
    }
    for (const row of rows) {
      const key = sandboxHistoryKey(row.exchange, row.symbol);
      let list = bySymbol.get(key);
      if (!list) bySymbol.set(key, (list = []));
      list.push(row);
    }
  }
  current = { hour, bySymbol };
  return bySymbol;
}

export function sandboxHistoryKey(exchange: string, symbol: string): string {
  return `${exchange}|${symbol}`;
}

/** The markets whose interval ends at `hour`, at the rate of the hour before's last minute. */
function settlementsOfHour(hour: number, before: SandboxHour): FundingSettlement[] {
  const rows: FundingSettlement[] = [];
  sandboxListings().forEach((listing, i) => {
    const intervalHours = before.intervals[i]!;
    if (hour % (intervalHours * HOUR_MS) !== 0) return;
    rows.push(
      toFundingSettlement({ exchange: listing.exchange, market: listing.market, base: listing.base, time: hour, rate: before.rates[i]!, intervalHours, source: "sandbox" }),
    );
  });
  return rows;
}
