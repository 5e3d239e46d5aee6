const DAY = 86_400_000;

export const BACKFILL_USAGE =
  "Usage: npm run backfill -- [--venues=binance,okx] [--since=YYYY-MM-DD]\n" +
  "  --venues  the venues to read (default: every venue with a history reader)\n" +
  "  --since   how far back, a UTC date (default: BACKFILL_DAYS ago)";

export interface BackfillArgs {
  venues: string[];
  /** Epoch ms. */
  since: number;
}

/**
 * The CLI's arguments, or what is wrong with them. `withHistory` are the venues that have a history
 * reader, `known` every venue the service reads (so a venue without history is told apart from a typo).
 */
export function parseBackfillArgs(
  argv: readonly string[],
  context: {
    known: readonly string[];
    withHistory: readonly string[];
    now: number;
    defaultDays: number;
    /** SETTLEMENT_RETENTION_DAYS when set: months older are dropped, so reading them is wasted. */
    retentionDays?: number;
  },
): { ok: true; args: BackfillArgs } | { ok: false; error: string } {
  let venues: string[] | undefined;
  let since: number | undefined;
  for (const arg of argv) {
    const [flag, value, ...more] = arg.split("=");
    if (flag === "--venues" && value !== undefined && more.length === 0) {
      venues = value.split(",").map((v) => v.trim().toLowerCase()).filter(Boolean);
      if (venues.length === 0) return { ok: false, error: "--venues names no venue" };
      const unknown = venues.filter((v) => !context.known.includes(v));
      if (unknown.length) return { ok: false, error: `Unknown venue${unknown.length > 1 ? "s" : ""}: ${unknown.join(", ")} (known: ${context.known.join(", ")})` };
      const without = venues.filter((v) => !context.withHistory.includes(v));
      if (without.length) return { ok: false, error: `No funding-history reader for ${without.join(", ")}` };
    } else if (flag === "--since" && value !== undefined && more.length === 0) {
      const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
      const time = match ? Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])) : NaN;
      if (!match || Number.isNaN(time) || new Date(time).toISOString().slice(0, 10) !== value) return { ok: false, error: `--since must be a date as YYYY-MM-DD, not "${value}"` };
      if (time >= context.now) return { ok: false, error: `--since ${value} is not in the past` };
      if (context.retentionDays !== undefined && time < context.now - context.retentionDays * DAY) {
        return { ok: false, error: `--since ${value} is older than SETTLEMENT_RETENTION_DAYS (${context.retentionDays} days): retention would drop those months again` };
      }
      since = time;
    } else {
      return { ok: false, error: `Unknown argument "${arg}"` };
    }
  }
  if (venues === undefined && context.withHistory.length === 0) return { ok: false, error: "No venue has a funding-history reader yet" };
  return { ok: true, args: { venues: [...new Set(venues ?? context.withHistory)], since: since ?? context.now - backfillDays(context.defaultDays, context.retentionDays) * DAY } };
}

/** How many days deep a backfill reads by default: BACKFILL_DAYS, or less where retention keeps less. */
export function backfillDays(backfillDays: number, retentionDays: number | undefined): number {
  return Math.min(backfillDays, retentionDays ?? Infinity);
}

/** A progress line: a bar on a terminal (`width` cells), the figures alone otherwise. */
export function progressLine(venue: string, figures: { done: number; total: number; rows: number }, width: number | null): string {
  const share = figures.total === 0 ? 1 : figures.done / figures.total;
  const text = `${venue}: ${figures.done}/${figures.total} markets, ${figures.rows.toLocaleString("en-US")} rows`;
  if (width === null) return text;
  const filled = Math.round(share * width);
  return `[${"#".repeat(filled)}${"-".repeat(width - filled)}] ${String(Math.round(share * 100)).padStart(3)}% ${text}`;
}
