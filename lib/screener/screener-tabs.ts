import { CARRY_SORTS } from "@/lib/market/carry/carry-query";
import { CARRY_PATH } from "./carry-screener-query";
import { toSearchParams, type SearchParams } from "./screener-query";

export type ScreenerTab = "pairs" | "carry";

export interface ScreenerTabLink {
  tab: ScreenerTab;
  label: string;
  href: string;
  current: boolean;
}

/** The filters that mean the same on both tabs; the rest (type, stability sorts, the page) stay behind. */
const SHARED = ["symbol", "exchange", "exchanges", "min_apr", "limit"] as const;
/** Sorts both tabs offer; another tab's sort (open interest, stability) goes back to the default. */
const SHARED_SORTS: readonly string[] = CARRY_SORTS;

/**
 * The screener's two tabs, perp pairs and spot–perp carry, each link keeping the filters of the
 * page shown now that the other tab understands, as the URL has them (a value the other tab
 * refuses is shown there as refused, not dropped in silence). Pure.
 */
export function screenerTabs(current: ScreenerTab, params: SearchParams): ScreenerTabLink[] {
  const given = toSearchParams(params);
  const kept = new URLSearchParams();
  for (const name of SHARED) for (const value of given.getAll(name)) if (value.trim() !== "") kept.append(name, value);
  const sort = given.get("sort");
  if (sort !== null && SHARED_SORTS.includes(sort)) kept.set("sort", sort);
  const query = kept.toString().replaceAll("%2C", ",");
  const href = (path: string) => (query ? `${path}?${query}` : path);
  return [
    { tab: "pairs", label: "Perp pairs", href: href("/opportunities"), current: current === "pairs" },
    { tab: "carry", label: "Spot–perp carry", href: href(CARRY_PATH), current: current === "carry" },
  ];
}
