import { gunzipSync, gzipSync } from "node:zlib";
import { z } from "zod";
import { priceSpread } from "./price-spread";
import { opportunitySchema, type Opportunity } from "./types";

const GZIP_MAGIC = [0x1f, 0x8b];

/**
 * A published set's items as stored on OpportunitySet.items: a gzipped JSON array. Level 1 packs
 * ~13 MB of JSON (17k opportunities) into about a tenth in tens of milliseconds, which is what
 * keeps a round's publishing (sending, WAL and storing the value) well under its second.
 */
export function packItems(items: readonly Opportunity[]): Uint8Array<ArrayBuffer> {
  return new Uint8Array(gzipSync(JSON.stringify(items), { level: 1 }));
}

/** The items of a stored set, validated; plain UTF-8 JSON (what the migration carried over) is read too. */
export function unpackItems(stored: Uint8Array | null | undefined): Opportunity[] {
  if (!stored || stored.length === 0) return [];
  const bytes = Buffer.from(stored.buffer, stored.byteOffset, stored.byteLength);
  const json = bytes[0] === GZIP_MAGIC[0] && bytes[1] === GZIP_MAGIC[1] ? gunzipSync(bytes) : bytes;
  return z.array(storedOpportunitySchema).parse(JSON.parse(json.toString("utf8")));
}

const { long: legSchema } = opportunitySchema.shape;
const storedLegSchema = legSchema.extend({
  observed_at: legSchema.shape.observed_at.optional(),
  interval_changed_at: legSchema.shape.interval_changed_at.optional(),
});

/**
 * A set published before legs carried their observation time is still served until the next round
 * replaces it (an API answering 500 in between would be worse), but read as what it is: legs
 * observed at unknown times, whose price spread nothing vouches for, so `price_spread_bps` becomes
 * `null` (`observation_time_unknown`, or `price_missing` as before). A set from before legs carried
 * `interval_changed_at` says nothing of interval changes: `null`.
 */
const storedOpportunitySchema = opportunitySchema
  .extend({
    long: storedLegSchema,
    short: storedLegSchema,
    price_spread_unavailable_reason: opportunitySchema.shape.price_spread_unavailable_reason.optional(),
  })
  .transform((item): Opportunity => {
    if (isCurrent(item)) return item;
    const { long, short } = item;
    // Only whether a price is there matters with both times unknown, so the venue unit will do.
    const spread = priceSpread({ unitPrice: long.mark_price, observedAt: null }, { unitPrice: short.mark_price, observedAt: null });
    return opportunitySchema.parse({
      ...item,
      long: { ...long, observed_at: long.observed_at ?? null, interval_changed_at: long.interval_changed_at ?? null },
      short: { ...short, observed_at: short.observed_at ?? null, interval_changed_at: short.interval_changed_at ?? null },
      ...spread,
    });
  });

type StoredOpportunity = z.input<typeof storedOpportunitySchema>;

function isCurrent(item: StoredOpportunity): item is Opportunity {
  const { long, short } = item;
  return (
    long.observed_at !== undefined &&
    short.observed_at !== undefined &&
    long.interval_changed_at !== undefined &&
    short.interval_changed_at !== undefined &&
    item.price_spread_unavailable_reason !== undefined
  );
}
