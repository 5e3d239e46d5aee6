const MINUTE_MS = 60_000;
const TWO_DIGITS = Array.from({ length: 60 }, (_, n) => String(n).padStart(2, "0"));
const THREE_DIGITS = Array.from({ length: 1_000 }, (_, n) => String(n).padStart(3, "0"));

/**
 * ISO texts of epoch times, exactly as `Date.prototype.toISOString` writes them, each minute's
 * `YYYY-MM-DDTHH:MM:` made once and the seconds and milliseconds appended: a round formats ~150,000
 * times (every market's observation, next settlement, last settlement and interval change, stored
 * and ranked), within a few minutes, and a Date and its toISOString for each took two and a half
 * times as long. Each time's text is made once and given again for the same time: a venue's
 * markets share their next settlement, their last and mostly their observation (the perp ranking's
 * 80,000 times in a benchmark round are ~165 distinct), so its legs share texts rather than each
 * hold new ones, which their encoding compares and hashes one by one. Times outside the years
 * 0–9999 or with a fraction of a millisecond are written by toISOString itself; an invalid one
 * throws as it does.
 */
export function isoTexts(): (epochMs: number) => string {
  const minutes = new Map<number, string>();
  const made = new Map<number, string>();
  return (epochMs) => {
    const known = made.get(epochMs);
    if (known !== undefined) return known;
    const text = isoText(epochMs, minutes);
    made.set(epochMs, text);
    return text;
  };
}

function isoText(epochMs: number, minutes: Map<number, string>): string {
  const minute = Math.floor(epochMs / MINUTE_MS);
  const within = epochMs - minute * MINUTE_MS;
  if (!Number.isInteger(within)) return new Date(epochMs).toISOString();
  let prefix = minutes.get(minute);
  if (prefix === undefined) {
    const iso = new Date(minute * MINUTE_MS).toISOString();
    // `+010000-01-01T…` and `-000001-…` have a six-digit year: left to toISOString.
    if (iso.length !== 24) return new Date(epochMs).toISOString();
    prefix = iso.slice(0, 17);
    minutes.set(minute, prefix);
  }
  return `${prefix}${TWO_DIGITS[Math.floor(within / 1_000)]!}.${THREE_DIGITS[within % 1_000]!}Z`;
}
