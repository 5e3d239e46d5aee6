import type { Opportunity } from "@/lib/market/model/types";
import type { EntryFields } from "@/lib/market/opportunities/set-entries";

/**
 * What the set's order, groups and splices read of a whole item: the tests hold lists of items as
 * the reference a served set's rows are compared with.
 */
export const ITEM_FIELDS: EntryFields<Opportunity> = {
  apr: (o) => o.apr,
  id: (o) => o.id,
  symbol: (o) => o.symbol,
  long: (o) => o.long.exchange,
  short: (o) => o.short.exchange,
};
