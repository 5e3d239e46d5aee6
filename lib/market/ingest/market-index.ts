/**
 * A lookup of `value` of each row by venue, then by market: a round compares its 16,000
 * observations with the previous ones by market, and a key per row made by joining venue and
 * market meant as many new texts to build and hash on each side, where the venue's and market's
 * own texts are looked up as they are. A later row of the same market replaces an earlier one.
 */
export function indexByMarket<R extends { exchange: string; market: string }, T>(
  rows: Iterable<R>,
  value: (row: R) => T,
): (exchange: string, market: string) => T | undefined {
  const byVenue = new Map<string, Map<string, T>>();
  for (const row of rows) {
    let markets = byVenue.get(row.exchange);
    if (!markets) byVenue.set(row.exchange, (markets = new Map()));
    markets.set(row.market, value(row));
  }
  return (exchange, market) => byVenue.get(exchange)?.get(market);
}
