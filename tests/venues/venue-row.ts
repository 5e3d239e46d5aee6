import type { ReplayRoute } from "@/lib/market/venues/replay-fetch";
import type { MarketSnapshot, VenueExclusions, VenueId } from "@/lib/market/model/types";

/* The shape of one row of the venue table (venue-expectations.ts, hip3-expectations.ts). */

type Identity = "exchange" | "base" | "venueBase" | "contractMultiplier" | "quote" | "settle";

/** A whole snapshot; the identity fields default to the market symbol's (multiplier 1). */
export type Reference = Omit<MarketSnapshot, Identity> & Partial<Pick<MarketSnapshot, Identity>>;

/** What must hold after one refresh against one set of routes. */
export interface Expectation {
  /** One market compared whole. */
  reference?: Reference;
  /**
   * Markets by unified symbol (or by the venue's own id where the key has no "/") and fields they
   * must have; `null`: no such snapshot.
   */
  markets?: Record<string, Partial<MarketSnapshot> | null>;
  /** The unified symbols of every snapshot, in the venue's order. */
  listed?: readonly string[];
  marketCount?: number;
  /** Venue ids present in the recording that must become no snapshot, and why. */
  skipped?: Record<string, string>;
  excluded?: Partial<VenueExclusions>;
  /** Every request, as `METHOD /path?key=value {json body}`, in order. */
  requests?: readonly string[];
  /** The warnings: a string is a warning's label (the text before its first ":"), a RegExp the whole. */
  warnings?: readonly (string | RegExp)[];
  /** The refresh is stale with an error matching this. */
  stale?: RegExp;
}

export interface Variant extends Expectation {
  name: string;
  routes: () => ReplayRoute[];
}

export interface VenueRow extends Expectation {
  venue: VenueId;
  /** What the replayed payloads are: REAL, DOCUMENTED EXAMPLE or SYNTHETIC. */
  fixture: string;
  routes: () => ReplayRoute[];
  /** The refresh's clock, for the row and its variants (else the real clock). */
  now?: number;
  /** The venue asks concurrently: requests are compared sorted. */
  requestsInAnyOrder?: boolean;
  /** Query keys whose value changes with every request (a signature time), shown as `key=…`. */
  unstableQuery?: readonly string[];
  variants?: readonly Variant[];
}
