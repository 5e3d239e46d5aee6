import { formatUtc } from "@/lib/format-time";
import type { Opportunity } from "@/lib/market/model/types";
import { venueName } from "./price-spread-note";

/** Venues whose prices in a set were observed at the same moment. */
export interface RecordingMoment {
  /** "2026-09-27 13:50 UTC", or a range when a venue's legs were observed at several times. */
  when: string;
  /** Display names, alphabetical. */
  venues: string[];
}

/**
 * When each venue's prices in a set were observed, venues of the same moment together, oldest
 * first: what the sample's badge says, since its recordings are from different days and only
 * venues of one moment get a price spread. Legs of unknown time are left out.
 */
export function recordingMoments(items: readonly Opportunity[]): RecordingMoment[] {
  const byVenue = new Map<string, { first: string; last: string }>();
  for (const o of items) {
    for (const leg of [o.long, o.short]) {
      if (leg.observed_at === null) continue;
      const name = venueName(leg);
      const seen = byVenue.get(name);
      if (!seen) byVenue.set(name, { first: leg.observed_at, last: leg.observed_at });
      else {
        if (Date.parse(leg.observed_at) < Date.parse(seen.first)) seen.first = leg.observed_at;
        if (Date.parse(leg.observed_at) > Date.parse(seen.last)) seen.last = leg.observed_at;
      }
    }
  }
  const moments = new Map<string, { from: number; to: number; venues: string[] }>();
  for (const [venue, { first, last }] of byVenue) {
    const from = formatUtc(first);
    const to = formatUtc(last);
    const when = from === to ? from : `${from} – ${to}`;
    const moment = moments.get(when) ?? { from: Date.parse(first), to: Date.parse(last), venues: [] };
    moment.venues.push(venue);
    moments.set(when, moment);
  }
  return [...moments]
    .sort(([, a], [, b]) => a.from - b.from || a.to - b.to)
    .map(([when, { venues }]) => ({ when, venues: venues.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)) }));
}

/** "Binance 2025-06-17 08:38 UTC; Bybit, Gate and OKX 2026-09-27 13:50 UTC", or null with no times. */
export function describeRecordingMoments(moments: readonly RecordingMoment[]): string | null {
  if (moments.length === 0) return null;
  return moments.map(({ when, venues }) => `${listed(venues)} ${when}`).join("; ");
}

function listed(names: readonly string[]): string {
  return names.length <= 1 ? names.join("") : `${names.slice(0, -1).join(", ")} and ${names.at(-1)}`;
}
