import { z } from "zod";
import type { AppServices } from "@/lib/app-services";
import type { Actor } from "@/lib/actor";
import type { Market } from "@/lib/market/market";
import { assertWithinHistory } from "@/lib/history/history-depth";
import { historyEnd } from "@/lib/market/model/history-end";
import { pageFrom } from "@/lib/pagination";
import { pageParams } from "@/lib/query-params";
import { marketMetaSchema, pageSchema } from "../openapi/shared-schemas";
import { rangeParams, resolveRange, type RangeRule } from "../time-range";

/**
 * The `query`, `data` and `meta` of a paged history route over a time range: the data is a page of
 * `item`; the query the route's `filters`, then `from` and `to` as `rule` bounds them, then `limit`
 * (at most `maxLimit`, default 100) and `offset`; the meta the market's with the range used.
 */
export function rangeList<S extends z.ZodRawShape>(rule: RangeRule, maxLimit: number, item: z.ZodType, filters: S) {
  const query = z.strictObject({ ...filters, ...rangeParams(rule), ...pageParams(maxLimit, 100) });
  return {
    query,
    data: pageSchema(item, query),
    meta: marketMetaSchema.extend({
      from: z.iso.datetime().describe("ISO 8601 UTC start of the range used."),
      to: z.iso.datetime().describe(`ISO 8601 UTC end of the range used, at most ${rule.maxDays} days after \`from\`.`),
    }),
  };
}

/**
 * The answer of a paged history route over a time range (/v1/funding-rates, /v1/funding-intervals):
 * the range resolved from the query (without `from` and `to`, ending now, or at the as-of of the
 * offline sample while it is served) and held within the plan's history depth (`historyDays`, a
 * 403 naming it), one page read from the key mode's market, and the market meta
 * with the range used.
 */
export async function rangePage<T>(
  actor: Pick<Actor, "mode" | "tier">,
  services: AppServices,
  query: { from?: Date; to?: Date; limit: number; offset: number },
  rule: RangeRule,
  read: (market: Market, range: { from: Date; to: Date }) => Promise<{ items: T[]; total: number }>,
) {
  const market = services.market(actor.mode);
  const snapshot = await market.opportunities();
  // The offline sample's history ends at its as-of, long before now: without a range asked for,
  // the one served ends there, so a fresh install's history is shown, not an empty week. The plan's
  // depth counts back from the same end.
  const now = new Date();
  const end = historyEnd(snapshot, now);
  const range = resolveRange(query, rule, query.from || query.to ? now : end);
  assertWithinHistory(range.from, services.plans(actor.tier), end);
  const page = await read(market, range);
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
