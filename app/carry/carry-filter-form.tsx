import Link from "next/link";
import { CARRY_SORTS, type CarrySort } from "@/lib/market/carry/carry-query";
import { CARRY_TYPES } from "@/lib/market/carry/carry-opportunity";
import { VENUE_IDS } from "@/lib/market/model/types";
import { VENUE_NAMES } from "@/lib/market/venues/venue-names";
import { CARRY_PATH } from "@/lib/screener/carry-screener-query";
import { CARRY_TYPE_LABELS } from "@/lib/screener/carry-cells";
import { FilterSelect } from "../opportunities/filter-form";
import styles from "../opportunities/screener.module.css";

const SORT_LABELS: Record<CarrySort, string> = {
  "-apr": "APR, highest first",
  apr: "APR, lowest first",
  "-net_apr": "Net APR, highest first",
  net_apr: "Net APR, lowest first",
};

/** Rows a page may show: the API's limits (at most 100). */
const PAGE_SIZES = ["20", "50", "100"] as const;

/** The values as the URL has them, so a refused value stays in its field to be corrected. */
export interface CarryFilterValues {
  type: string;
  exchange: string;
  symbol: string;
  min_apr: string;
  sort: string;
  limit: string;
  /** Both legs among these, as the URL gives them (the perp pairs' venue boxes): kept, not edited here. */
  exchanges: string;
}

/**
 * The carry tab's filters: a plain GET form (no script needed; the page drops the empty fields it
 * submits), every field labelled, open above the table.
 */
export function CarryFilterForm({ values }: { values: CarryFilterValues }) {
  const sizes = values.limit === "" || (PAGE_SIZES as readonly string[]).includes(values.limit) ? PAGE_SIZES : [...PAGE_SIZES, values.limit];
  return (
    <details className={styles.filtersBox} open>
      <summary>Filters</summary>
      <form method="get" action={CARRY_PATH} className={`filters ${styles.filters}`} aria-label="Filter carry opportunities">
        <FilterSelect name="type" label="Trade" value={values.type} options={[["", "Both sides"], ...CARRY_TYPES.map((type) => [type, CARRY_TYPE_LABELS[type]] as const)]} />
        <FilterSelect name="exchange" label="Exchange (either leg)" value={values.exchange} options={[["", "All exchanges"], ...VENUE_IDS.map((id) => [id, VENUE_NAMES[id]] as const)]} />
        <div>
          <label htmlFor="f-symbol">Asset</label>
          <input id="f-symbol" name="symbol" size={10} defaultValue={values.symbol} />
        </div>
        <div>
          <label htmlFor="f-min-apr">Min APR (%)</label>
          <input id="f-min-apr" name="min_apr" inputMode="decimal" size={8} defaultValue={values.min_apr} />
        </div>
        <FilterSelect name="sort" label="Sort by" value={values.sort || "-apr"} options={CARRY_SORTS.map((sort) => [sort, SORT_LABELS[sort]] as const)} />
        <FilterSelect name="limit" label="Rows per page" value={values.limit || "50"} options={sizes.map((size) => [size, size] as const)} />
        {values.exchanges && <input type="hidden" name="exchanges" value={values.exchanges} />}
        <div className="filter-actions">
          <button type="submit">Apply</button>
          <Link href={CARRY_PATH}>Clear</Link>
        </div>
      </form>
    </details>
  );
}
