import type { AppServices } from "@/lib/app-services";
import type { Actor } from "@/lib/actor";
import type { Market } from "@/lib/market/market";
import { pageFrom } from "@/lib/pagination";
import { resolveRange, type RangeRule } from "../time-range";

/**
 * The answer of a paged history route over a time range (/v1/funding-rates, /v1/funding-intervals):
 * the range resolved from the query, one page read from the key mode's market, and the market meta
 * with the range used.
 */
export async function rangePage<T>(
  actor: Pick<Actor, "mode">,
  services: AppServices,
  query: { from?: Date; to?: Date; limit: number; offset: number },
  rule: RangeRule,
  read: (market: Market, range: { from: Date; to: Date }) => Promise<{ items: T[]; total: number }>,
) {
  const range = resolveRange(query, rule);
  const market = services.market(actor.mode);
  const [page, snapshot] = await Promise.all([read(market, range), market.opportunities()]);
  return {
    data: pageFrom(page.items, page.total, query),
    meta: {
      data_as_of: snapshot.asOf,
      sample: snapshot.sample,
      mode: actor.mode,
      from: range.from.toISOString(),
      to: range.to.toISOString(),
    },
  };
}
