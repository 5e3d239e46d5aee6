import type { VenueHistoryReader } from "../history-types";

/** Every venue's funding-history reader, one file per venue beside this one. */
export const HISTORY_READERS: readonly VenueHistoryReader[] = [];

/** The history reader of `exchange`, or undefined for a venue that serves no funding history. */
export function historyReader(exchange: string): VenueHistoryReader | undefined {
  return HISTORY_READERS.find((reader) => reader.exchange === exchange);
}
