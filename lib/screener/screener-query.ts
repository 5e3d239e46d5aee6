import type { z } from "zod";
import { AppError, type FieldProblem } from "@/lib/errors";
import { parseQuery } from "@/lib/query-params";
import { opportunitiesQuery } from "@/lib/market/opportunities/opportunity-query";
import type { OpportunityFilter } from "@/lib/market/opportunities/opportunity-query";

export type SearchParams = Record<string, string | string[] | undefined>;

export type ScreenerQuery = { ok: true; filter: OpportunityFilter } | { ok: false; problems: FieldProblem[] };

const DEFAULTS = { limit: 50, offset: 0, sort: "-apr" } as const satisfies Partial<OpportunityFilter>;

/** The page's query string as URLSearchParams, repeated parameters kept (the API refuses them). */
export function toSearchParams(params: SearchParams): URLSearchParams {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) {
    for (const v of Array.isArray(value) ? value : value === undefined ? [] : [value]) search.append(name, v);
  }
  return search;
}

/**
 * The screener's URL read exactly as GET /v1/opportunities reads its query (same schema, same
 * refusals), except that empty parameters are dropped first: the filter form submits every
 * field, and an empty "min APR" means no minimum rather than a mistake; and the venue boxes'
 * `exchanges` values are joined into the one list the API takes.
 */
export function parseScreenerQuery(params: SearchParams): ScreenerQuery {
  return parsePageQuery(params, opportunitiesQuery);
}

/** A page's URL read by an API list's query schema, as parseScreenerQuery reads the screener's. */
export function parsePageQuery<S extends z.ZodObject>(params: SearchParams, schema: S): { ok: true; filter: z.infer<S> } | { ok: false; problems: FieldProblem[] } {
  const url = new URL("http://screener.invalid/opportunities");
  // The venue checkboxes submit one `exchanges` per box when the form is sent without JavaScript.
  const venues: string[] = [];
  for (const [name, value] of toSearchParams(params)) {
    if (value.trim() === "") continue;
    if (name === "exchanges") venues.push(value.trim());
    else url.searchParams.append(name, value.trim());
  }
  if (venues.length > 0) url.searchParams.set("exchanges", venues.join(","));
  try {
    return { ok: true, filter: parseQuery(url, schema) };
  } catch (error) {
    if (error instanceof AppError && error.extra.details) return { ok: false, problems: error.extra.details };
    throw error;
  }
}

/**
 * The filters every list page shares, in a URL's query; what equals `defaults` is left out, so the
 * address stays short enough to share.
 */
export function listSearch(next: SharedFilter, defaults: { sort: string; limit: number; offset: number }): string {
  const search = new URLSearchParams();
  if (next.exchange !== undefined) search.set("exchange", next.exchange);
  if (next.exchanges !== undefined) search.set("exchanges", next.exchanges.join(","));
  if (next.min_apr !== undefined) search.set("min_apr", String(next.min_apr));
  if (next.symbol !== undefined) search.set("symbol", next.symbol);
  if (next.sort !== defaults.sort) search.set("sort", next.sort);
  if (next.limit !== defaults.limit) search.set("limit", String(next.limit));
  if (next.offset !== defaults.offset) search.set("offset", String(next.offset));
  return search.toString();
}

/** The fields GET /v1/opportunities and GET /v1/carry-opportunities both filter, sort and page by. */
export interface SharedFilter {
  exchange?: string;
  exchanges?: readonly string[];
  min_apr?: number;
  symbol?: string;
  sort: string;
  limit: number;
  offset: number;
}

/** A shareable screener URL for `filter` with `change` applied; defaults are left out of it. */
export function screenerHref(filter: OpportunityFilter, change: Partial<OpportunityFilter> = {}): string {
  const text = listSearch({ ...filter, ...change }, DEFAULTS);
  return text ? `/opportunities?${text}` : "/opportunities";
}

/** Clicking a column heading: sorted by it descending first, and ascending on a second click. */
export function toggledSort<F extends string>(current: string, field: F): F | `-${F}` {
  const descending = `-${field}` as const;
  return current === descending ? field : descending;
}

/**
 * An opportunity's own page (app/opportunities/[id]); with `size` (USD, the screener's size
 * control) the page's quote form opens at that size. Pure.
 */
export function opportunityHref(id: string, size: number | null = null): string {
  const path = `/opportunities/${encodeURIComponent(id)}`;
  return size !== null && Number.isFinite(size) && size > 0 ? `${path}?size=${size}` : path;
}
