import type { AppServices } from "@/lib/app-services";
import type { VerifiedKey } from "@/lib/keys/verify-key";
import type { Market } from "@/lib/market/market";
import { resolveRange, type RangeRule } from "../time-range";

/**
 * The answer of a paged history route over a time range (/v1/funding-rates, /v1/funding-intervals):
 * the range resolved from the query, one page read from the key mode's market, and the market meta
 * with the range used.
 */
export async function rangePage<T>(
  key: VerifiedKey,
  services: AppServices,
  query: { from?: Date; to?: Date; limit: number; offset: number },
  rule: RangeRule,
  read: (market: Market, range: { from: Date; to: Date }) => Promise<{ items: T[]; total: number }>,
) {
  const range = resolveRange(query, rule);
  const market = services.market(key.mode);
  const [page, snapshot] = await Promise.all([read(market, range), market.opportunities()]);
  return {
    data: {
      items: page.items,
      total: page.total,
      limit: query.limit,
      offset: query.offset,
      has_more: query.offset + page.items.length < page.total,
    },
    meta: {
      data_as_of: snapshot.asOf,
      sample: snapshot.sample,
      mode: key.mode,
      from: range.from.toISOString(),
      to: range.to.toISOString(),
    },
  };
}
