/**
 * Cell formatting for the screener. Pure and locale-independent, so the server's render and the
 * browser's hydration produce the same text.
 */

const DASH = "—";

/** A decimal funding rate per interval as a percentage: 0.0001 → "0.0100%". */
export function formatFundingRate(rate: number): string {
  return `${trimNegativeZero((rate * 100).toFixed(4))}%`;
}

/** An APR already in percent per year: 12.3456 → "12.35%"; null → "—". */
export function formatApr(apr: number | null | undefined): string {
  if (apr === null || apr === undefined) return DASH;
  return `${trimNegativeZero(apr.toFixed(2))}%`;
}

/** A funding interval in hours: 8 → "8h", 0.5 → "0.5h". */
export function formatInterval(hours: number): string {
  return `${Number.isInteger(hours) ? hours : Number(hours.toFixed(2))}h`;
}

/** A signed spread in basis points: 3.21 → "+3.2 bps"; null → "—". */
export function formatBps(bps: number | null): string {
  if (bps === null) return DASH;
  const text = trimNegativeZero(bps.toFixed(1));
  return `${bps > 0 && text !== "0.0" ? "+" : ""}${text} bps`;
}

const UNITS: readonly [number, string][] = [
  [1e12, "T"],
  [1e9, "B"],
  [1e6, "M"],
  [1e3, "K"],
];

/** Dollar amounts at a glance: 1_234_567 → "$1.23M", 950 → "$950"; null → "—". */
export function formatUsdCompact(usd: number | null): string {
  if (usd === null) return DASH;
  return `$${compactMagnitude(usd) ?? Math.round(usd)}`;
}

/**
 * An amount of an asset at a glance: 1_234_567 BTC → "1.23M BTC", 0.5 → "0.5 BTC", small amounts
 * to four significant digits; null → "—".
 */
export function formatAssetAmount(amount: number | null, asset: string): string {
  if (amount === null) return DASH;
  return `${compactMagnitude(amount) ?? Number(amount.toPrecision(4))} ${asset}`;
}

/** A magnitude from about a thousand up with its unit (1_234_567 → "1.23M"); null below. */
function compactMagnitude(value: number): string | null {
  for (const [size, unit] of UNITS) {
    // Rounding can carry into the next unit (999_999 → "1000.00K"), so compare after rounding.
    const scaled = Number((value / size).toFixed(2));
    if (scaled >= 1 && scaled < 1000) return `${scaled.toFixed(scaled >= 100 ? 0 : scaled >= 10 ? 1 : 2)}${unit}`;
    if (scaled >= 1000 && unit === "T") return `${scaled.toFixed(0)}T`;
  }
  return null;
}

/** How long ago an instant was, in the largest whole unit: "just now", "5 min ago", "3 h ago", "2 days ago". */
export function formatAge(iso: string, nowMs: number): string {
  const seconds = Math.floor((nowMs - Date.parse(iso)) / 1000);
  if (!Number.isFinite(seconds) || seconds < 60) return "just now";
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes} min ago`;
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return `${hours} h ago`;
  const days = Math.floor(hours / 24);
  return `${days} days ago`;
}

/** "+1.2", "-0.0" and "-0.00" read as noise in a table: a rounded zero is shown unsigned. */
function trimNegativeZero(text: string): string {
  return /^-0(\.0+)?$/.test(text) ? text.slice(1) : text;
}

/** An age or a period in seconds at a glance: 4.2 → "4 s", 60 → "1 min", 125 → "2 min 5 s", 7_300 → "2 h 1 min"; null → "—". */
export function formatSeconds(seconds: number | null): string {
  if (seconds === null) return DASH;
  const whole = Math.floor(seconds);
  if (whole < 60) return `${whole} s`;
  if (whole < 3_600) return whole % 60 === 0 ? `${whole / 60} min` : `${Math.floor(whole / 60)} min ${whole % 60} s`;
  const minutes = Math.floor((whole % 3_600) / 60);
  if (whole < 172_800) return minutes === 0 ? `${Math.floor(whole / 3_600)} h` : `${Math.floor(whole / 3_600)} h ${minutes} min`;
  return `${Math.floor(whole / 86_400)} days`;
}
