import type { MarketSnapshot, VenueExclusions, VenueId } from "../../model/types";
import { classifyMarket, listedMarket, snapshotOf, type FundingObservation, type ListedMarket, type VenueMarket } from "./build-snapshot";

/** What judging reads of one market list apart from the funding rows, the same for every refresh of that list. */
interface JudgedList {
  /** The eligible markets' positions in the list, in symbol order (the order a venue's snapshots are given in), and each one's ListedMarket. */
  eligible: Uint32Array;
  listed: ListedMarket[];
  notLinearPerp: number;
  inactive: number;
  /** Each symbol's first position in the list: a funding row's market. */
  placeOf: Map<string, number>;
  /** The codes besides USDT and USDC counted as dollars (classifyMarket) when it was judged. */
  alsoDollars: string;
}

/**
 * Kept per list (by the list itself): a kept list (MARKETS_TTL_MS) is judged once, not on every
 * refresh, for its markets' verdicts, their order, their index by symbol and their ListedMarkets do
 * not change while the list does not. A list reloaded every refresh (an HTTP venue whose list is
 * its funding payload) is judged every refresh, as before.
 */
const judgedLists = new WeakMap<readonly VenueMarket[], JudgedList>();

function judgedList(venue: VenueId, markets: readonly VenueMarket[], alsoDollars: readonly string[]): JudgedList {
  let judged = judgedLists.get(markets);
  if (judged && judged.alsoDollars === alsoDollars.join()) return judged;
  const placeOf = new Map<string, number>();
  const eligible: number[] = [];
  let notLinearPerp = 0;
  let inactive = 0;
  for (let i = 0; i < markets.length; i++) {
    const market = markets[i]!;
    if (!placeOf.has(market.symbol)) placeOf.set(market.symbol, i);
    const verdict = classifyMarket(market, alsoDollars);
    if (verdict === "eligible") eligible.push(i);
    else if (verdict === "inactive") inactive += 1;
    else notLinearPerp += 1;
  }
  // Stable, so markets of one symbol keep the list's order.
  eligible.sort((a, b) => (markets[a]!.symbol < markets[b]!.symbol ? -1 : markets[a]!.symbol > markets[b]!.symbol ? 1 : 0));
  const listed = eligible.map((at) => listedMarket(venue, markets[at]!));
  judged = { eligible: Uint32Array.from(eligible), listed, notLinearPerp, inactive, placeOf, alsoDollars: alsoDollars.join() };
  judgedLists.set(markets, judged);
  return judged;
}

/**
 * A venue's snapshots from its market list and its funding rows: one a comparable perpetual
 * (classifyMarket), in symbol order, each joined to the row for its symbol (the last, where the
 * venue sent several); what was left out, by reason; and the symbols of rows no listed market has.
 */
export function judgeMarkets(
  venue: VenueId,
  markets: readonly VenueMarket[],
  observations: readonly FundingObservation[],
  fetchedAt: number,
  alsoDollars: readonly string[],
): { snapshots: MarketSnapshot[]; excluded: VenueExclusions; unlisted: string[] } {
  const { eligible, listed, notLinearPerp, inactive, placeOf } = judgedList(venue, markets, alsoDollars);
  const rowAt = new Array<FundingObservation | undefined>(markets.length);
  let unlisted: Set<string> | undefined;
  for (const observation of observations) {
    const at = placeOf.get(observation.symbol);
    if (at === undefined) (unlisted ??= new Set()).add(observation.symbol);
    else rowAt[at] = observation;
  }
  const excluded: VenueExclusions = { notLinearPerp, inactive, unlisted: unlisted?.size ?? 0, invalid: 0, noFundingRow: 0 };
  const snapshots: MarketSnapshot[] = [];
  for (let k = 0; k < eligible.length; k++) {
    const observation = rowAt[eligible[k]!];
    if (!observation) excluded.noFundingRow += 1;
    const snapshot = snapshotOf(venue, listed[k]!, observation, fetchedAt);
    if (snapshot) snapshots.push(snapshot);
    else excluded.invalid += 1;
  }
  return { snapshots, excluded, unlisted: unlisted ? [...unlisted] : [] };
}
