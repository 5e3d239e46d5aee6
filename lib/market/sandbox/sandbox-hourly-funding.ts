import { generateSandboxFunding } from "./generate-sandbox-market";

const HOUR_MS = 3_600_000;
/** How far back the sandbox's hourly history reaches: the 30 days persistence examines. */
export const SANDBOX_HOURLY_HOURS = 720;

export interface SandboxListing {
  exchange: string;
  market: string;
  base: string;
}

/** One hour of the sandbox's history: each listing's funding in the hour's last minute. */
export interface SandboxHour {
  /** Epoch ms of the hour's start. */
  hour: number;
  /** By index in sandboxListings(): the rate quoted, decimal per interval. */
  rates: Float64Array;
  /** By the same index: the interval in hours. */
  intervals: Float64Array;
}

let listings: readonly SandboxListing[] | undefined;

/**
 * The listings of the venues that are not stale, in generateSandboxFunding's order, which is the
 * same every minute: the listings and the stale venue do not depend on time or seed.
 */
export function sandboxListings(): readonly SandboxListing[] {
  listings ??= generateSandboxFunding(new Date(0)).map(({ exchange, market, base }) => ({ exchange, market, base }));
  return listings;
}

const cache = new Map<number, SandboxHour>();

/**
 * The `count` whole hours before `through` (an hour's start), oldest first, each as the sandbox
 * market's funding in the hour's last minute: one sample an hour stands for the hourly roll-up a
 * live service keeps of a minute's rounds, and its rate is the one the markets settling at the end
 * of the hour settle at. Each hour is generated once per process (~1 ms) and kept while it is
 * among the last SANDBOX_HOURLY_HOURS, so the window slides an hour at a time.
 */
export function sandboxHours(through: number, count: number): SandboxHour[] {
  if (count > SANDBOX_HOURLY_HOURS) throw new RangeError(`the sandbox keeps ${SANDBOX_HOURLY_HOURS} hours, not ${count}`);
  if (cache.size > SANDBOX_HOURLY_HOURS + 24) {
    for (const hour of cache.keys()) if (hour < through - SANDBOX_HOURLY_HOURS * HOUR_MS || hour >= through) cache.delete(hour);
  }
  const hours: SandboxHour[] = [];
  for (let hour = through - count * HOUR_MS; hour < through; hour += HOUR_MS) {
    let sample = cache.get(hour);
    if (!sample) {
      sample = sampleHour(hour);
      cache.set(hour, sample);
    }
    hours.push(sample);
  }
  return hours;
}

function sampleHour(hour: number): SandboxHour {
  const funding = generateSandboxFunding(new Date(hour + HOUR_MS - 60_000));
  const rates = new Float64Array(funding.length);
  const intervals = new Float64Array(funding.length);
  funding.forEach((f, i) => {
    rates[i] = f.fundingRate;
    intervals[i] = f.fundingIntervalHours;
  });
  return { hour, rates, intervals };
}
