/** The filters as the URL has them (raw text), as the folded filter bar's one-line summary. */
export interface FilterSummaryValues {
  exchange: string;
  exchanges: readonly string[];
  min_apr: string;
  symbol: string;
  sort: string;
}

const SORT_WORDS: Record<string, string> = {
  apr: "APR ascending",
  "-net_apr": "net APR",
  net_apr: "net APR ascending",
  "-open_interest": "open interest",
  open_interest: "open interest ascending",
  stability: "steadiest",
  "-stability": "least steady",
};

/** "okx · both legs on 3 venues · APR ≥ 5% · BTC · sorted by net APR", or "" with no filter. Pure. */
export function filterSummary(values: FilterSummaryValues): string {
  const parts: string[] = [];
  if (values.exchange) parts.push(values.exchange);
  if (values.exchanges.length === 1) parts.push(`both legs on ${values.exchanges[0]}`);
  else if (values.exchanges.length > 1) parts.push(`both legs on ${values.exchanges.length} venues`);
  if (values.min_apr) parts.push(`APR ≥ ${values.min_apr}%`);
  if (values.symbol) parts.push(values.symbol.toUpperCase());
  if (values.sort && values.sort !== "-apr") parts.push(`sorted by ${SORT_WORDS[values.sort] ?? values.sort}`);
  return parts.join(" · ");
}
