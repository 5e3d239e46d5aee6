import type { VenueId } from "../model/types";

/**
 * How far apart the two sides' loads may drift, as a share of the whole, before venues move
 * between the threads: a venue that moves is a new client on its new thread, which loads its market
 * list there (the whole list's parsing, and a second copy of it in memory) and runs its parsing
 * code cold for a few rounds. One venue of ~600 markets is ~2 % of a round at 46 venues.
 */
export const SPLIT_TOLERANCE = 0.05;

/**
 * The venues a second thread should fetch and parse so that it and the round's own thread get
 * about equal shares. Weights are each venue's markets in its last answer (a venue's parsing grows
 * with them).
 *
 * Without `previous`: heaviest first, each to the side with less so far, a tie to the second
 * thread (the round's thread has more to do meanwhile: the other thread's answers to read, the
 * history read's answers, the round's progress); ties in weight go by name, so the split is the
 * same every time.
 *
 * With `previous` (the second thread's venues until now): kept while the sides are within
 * SPLIT_TOLERANCE of the whole, as they are from one round to the next; otherwise venues move from
 * the heavier side, each the one that brings the sides closest together, until they are within it
 * or no move brings them closer. A worker's first round weighs every venue 1 (no answer yet): its
 * second moves the few venues that balance the real weights rather than splitting them anew, which
 * moved about half of them.
 */
export function venuesForSecondThread(venues: readonly VenueId[], weightOf: (venue: VenueId) => number, previous?: ReadonlySet<VenueId>): Set<VenueId> {
  if (previous) return rebalanced(venues, weightOf, previous);
  const byWeight = [...venues].sort((a, b) => weightOf(b) - weightOf(a) || compareNames(a, b));
  const second = new Set<VenueId>();
  let secondLoad = 0;
  let ownLoad = 0;
  for (const venue of byWeight) {
    if (secondLoad <= ownLoad) {
      second.add(venue);
      secondLoad += weightOf(venue);
    } else {
      ownLoad += weightOf(venue);
    }
  }
  return second;
}

function rebalanced(venues: readonly VenueId[], weightOf: (venue: VenueId) => number, previous: ReadonlySet<VenueId>): Set<VenueId> {
  const second = new Set(venues.filter((venue) => previous.has(venue)));
  const total = venues.reduce((sum, venue) => sum + weightOf(venue), 0);
  // The second side's load less the round's thread's.
  let difference = venues.reduce((sum, venue) => sum + (second.has(venue) ? weightOf(venue) : -weightOf(venue)), 0);
  const byName = [...venues].sort(compareNames);
  while (Math.abs(difference) > SPLIT_TOLERANCE * total) {
    const fromSecond = difference > 0;
    const gap = Math.abs(difference);
    // Moving a venue of weight w leaves the sides |gap − 2w| apart: the move that leaves the least, if less than now.
    let best: VenueId | undefined;
    let left = gap;
    for (const venue of byName) {
      if (second.has(venue) !== fromSecond) continue;
      const after = Math.abs(gap - 2 * weightOf(venue));
      if (after < left) {
        best = venue;
        left = after;
      }
    }
    if (best === undefined) break;
    if (fromSecond) second.delete(best);
    else second.add(best);
    difference = fromSecond ? difference - 2 * weightOf(best) : difference + 2 * weightOf(best);
  }
  return second;
}

function compareNames(a: VenueId, b: VenueId): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
