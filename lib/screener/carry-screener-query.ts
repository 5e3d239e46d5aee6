import type { FieldProblem } from "@/lib/errors";
import { carryOpportunitiesQuery, type CarryFilter } from "@/lib/market/carry/carry-query";
import { listSearch, parsePageQuery, type SearchParams } from "./screener-query";

export type CarryScreenerQuery = { ok: true; filter: CarryFilter } | { ok: false; problems: FieldProblem[] };

/** The carry tab's address. */
export const CARRY_PATH = "/carry";

const DEFAULTS = { limit: 50, offset: 0, sort: "-apr" } as const satisfies Partial<CarryFilter>;

/**
 * The carry tab's URL read exactly as GET /v1/carry-opportunities reads its query, empty fields
 * dropped first as the screener's are (a form submits every field).
 */
export function parseCarryScreenerQuery(params: SearchParams): CarryScreenerQuery {
  return parsePageQuery(params, carryOpportunitiesQuery);
}

/** A shareable carry tab URL for `filter` with `change` applied; defaults are left out of it. */
export function carryHref(filter: CarryFilter, change: Partial<CarryFilter> = {}): string {
  const next = { ...filter, ...change };
  const search = new URLSearchParams(listSearch(next, DEFAULTS));
  // The type first, as the form lists it.
  const text = [next.type === undefined ? "" : `type=${next.type}`, search.toString()].filter(Boolean).join("&");
  return text ? `${CARRY_PATH}?${text}` : CARRY_PATH;
}
