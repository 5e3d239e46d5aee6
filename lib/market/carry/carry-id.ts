import { VENUE_ID_PATTERN } from "../model/types";
import { CARRY_TYPES, type CarryType } from "./carry-opportunity";

/** What a carry opportunity's id names (docs/decisions/carry-opportunity-ids.md). */
export interface CarryIdParts {
  symbol: string;
  type: CarryType;
  /** The long leg's venue: the spot venue of a `spot_perp`, the perpetual's of a `perp_spot`. */
  longExchange: string;
  shortExchange: string;
}

/**
 * `<asset>-<type>-<long venue>-<short venue>`, as perp pairs' `<asset>-<long>-<short>` with the type
 * before the venues: the type names the legs long side first, so the venues keep perp ids' order.
 * Stable across refreshes, and it starts with the asset and a dash as perp ids do.
 */
export function carryOpportunityId(symbol: string, type: CarryType, longExchange: string, shortExchange: string): string {
  return `${symbol}-${type}-${longExchange}-${shortExchange}`;
}

/**
 * The parts of a carry id, read from its end: venue ids never contain a dash and the types an
 * underscore no venue id has, so the last three dash-separated parts are always the type and the
 * venues, and an asset with dashes of its own stays whole. Undefined for anything else, a perp
 * pair's id included: its third part from the end is part of its asset, upper case as every
 * normalised base is (normalise-base.ts), never a lower-case carry type.
 */
export function parseCarryOpportunityId(id: string): CarryIdParts | undefined {
  const parts = id.split("-");
  if (parts.length < 4) return undefined;
  const [type, longExchange, shortExchange] = parts.slice(-3) as [string, string, string];
  if (!isCarryType(type) || !VENUE_ID_PATTERN.test(longExchange) || !VENUE_ID_PATTERN.test(shortExchange)) return undefined;
  const symbol = parts.slice(0, -3).join("-");
  return symbol === "" ? undefined : { symbol, type, longExchange, shortExchange };
}

function isCarryType(text: string): text is CarryType {
  return (CARRY_TYPES as readonly string[]).includes(text);
}
