import { toFundingSettlement, type FundingSettlement } from "./funding-settlement";
import { generateSandboxMarket } from "./sandbox/generate-sandbox-market";

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
 * minute before. The stale venue settles nothing (it is not being observed). Each hour is
 * generated once per process (~2 ms) and the 7-day window slides hour by hour.
 */
export function sandboxFundingHistory(at: Date): Map<string, FundingSettlement[]> {
  const hour = Math.floor(at.getTime() / HOUR_MS) * HOUR_MS;
  if (current?.hour === hour) return current.bySymbol;
  const first = hour - (SANDBOX_HISTORY_HOURS - 1) * HOUR_MS;
  for (const cached of settlementsAt.keys()) if (cached < first || cached > hour) settlementsAt.delete(cached);
  const bySymbol = new Map<string, FundingSettlement[]>();
  for (let h = first; h <= hour; h += HOUR_MS) {
    let rows = settlementsAt.get(h);
    if (!rows) {
      rows = settlementsOfHour(h);
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

function settlementsOfHour(hour: number): FundingSettlement[] {
  const market = generateSandboxMarket(new Date(hour - 60_000));
  const stale = new Set<string>(market.venues.filter((v) => v.status === "stale").map((v) => v.id));
  return market.snapshots
    .filter((s) => s.nextFundingAt === hour && s.fundingRate !== null && !stale.has(s.exchange))
    .map((s) =>
      toFundingSettlement({
        exchange: s.exchange,
        market: s.market,
        base: s.base,
        time: hour,
        rate: s.fundingRate ?? 0,
        intervalHours: s.fundingIntervalHours,
        source: "sandbox",
      }),
    );
}
