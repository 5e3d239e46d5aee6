import type { VenueId } from "../model/types";

/**
 * The venues a second thread should fetch and parse so that it and the round's own thread get
 * about equal shares: heaviest first, each to the side with less so far, a tie to the second thread
 * (the round's thread has more to do meanwhile: the other thread's answers to read, the history
 * read's answers, the round's progress). Weights are each venue's markets in its last answer (a
 * venue's parsing grows with them); ties in weight go by name, so the split is the same every time.
 */
export function venuesForSecondThread(venues: readonly VenueId[], weightOf: (venue: VenueId) => number): Set<VenueId> {
  const byWeight = [...venues].sort((a, b) => weightOf(b) - weightOf(a) || (a < b ? -1 : a > b ? 1 : 0));
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
