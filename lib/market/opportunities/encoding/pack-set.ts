import { gunzipSync } from "node:zlib";
import { z } from "zod";
import { roundTo } from "@/lib/round";
import { columnsOf, itemsOf, type OpportunityColumns } from "./columns";
import { decodeColumns, encodeColumns, isColumns } from "./set-bytes";
import { priceSpread } from "../../price-spread";
import { opportunitySchema, UNKNOWN_PERSISTENCE, type Opportunity } from "../../types";

const GZIP_MAGIC = [0x1f, 0x8b];

/**
 * A published set's items as stored on OpportunitySet.items: in columns, compressed
 * (opportunity-set-columns.ts). Laid out on this thread, compressed on libuv's.
 */
export async function packItems(items: readonly Opportunity[] | OpportunityColumns): Promise<Uint8Array<ArrayBuffer>> {
  return encodeColumns(Array.isArray(items) ? columnsOf(items) : (items as OpportunityColumns));
}

/** The items of a stored set as columns (a set in columns is read as it is; older forms through unpackItems). */
export function unpackColumns(stored: Uint8Array | null | undefined): OpportunityColumns {
  return stored && isColumns(stored) ? decodeColumns(stored, readStoredLeg) : columnsOf(unpackItems(stored));
}

const readStoredLeg = (leg: unknown) => currentLeg(storedLegSchema.parse(leg));

/**
 * The items of a stored set, validated (each leg once); the earlier forms are read too, until a
 * round replaces them: gzipped JSON with each leg once (format 2), a gzipped array of whole items,
 * and plain UTF-8 JSON (what the migration carried over).
 */
export function unpackItems(stored: Uint8Array | null | undefined): Opportunity[] {
  if (!stored || stored.length === 0) return [];
  if (isColumns(stored)) return itemsOf(decodeColumns(stored, readStoredLeg));
  const bytes = Buffer.from(stored.buffer, stored.byteOffset, stored.byteLength);
  const json = bytes[0] === GZIP_MAGIC[0] && bytes[1] === GZIP_MAGIC[1] ? gunzipSync(bytes) : bytes;
  const parsed: unknown = JSON.parse(json.toString("utf8"));
  if (Array.isArray(parsed)) return z.array(storedOpportunitySchema).parse(parsed);
  return unpackRows(packedSetSchema.parse(parsed));
}

const { long: legSchema } = opportunitySchema.shape;
type Leg = z.infer<typeof legSchema>;

/** Leg fields added after sets were first stored: an older set's legs lack them. */
const ADDED = [
  "observed_at",
  "interval_changed_at",
  "funding_interval_source",
  "funding_rate_per_hour",
  "predicted_funding_rate",
  "last_settled_rate",
  "last_settled_at",
  "rate_cap",
  "rate_floor",
  "at_cap",
] as const satisfies readonly (keyof Leg)[];

const storedLegSchema = legSchema.partial(Object.fromEntries(ADDED.map((name) => [name, true])) as { [K in (typeof ADDED)[number]]: true });
type StoredLeg = z.infer<typeof storedLegSchema>;

/**
 * What an older set's leg reads as: it says nothing of the added fields (no observation time,
 * interval change, source, forecast, settlement or bounds known), except the hourly rate, which
 * follows from what it does say.
 */
const ADDED_LEG_DEFAULTS: { [K in (typeof ADDED)[number]]: (leg: StoredLeg) => Leg[K] } = {
  observed_at: () => null,
  interval_changed_at: () => null,
  funding_interval_source: () => null,
  funding_rate_per_hour: (leg) => roundTo(leg.funding_rate / leg.funding_interval_hours, 12),
  predicted_funding_rate: () => null,
  last_settled_rate: () => null,
  last_settled_at: () => null,
  rate_cap: () => null,
  rate_floor: () => null,
  at_cap: () => false,
};

function currentLeg(leg: StoredLeg): Leg {
  const filled: Record<string, unknown> = { ...leg };
  for (const name of ADDED) if (leg[name] === undefined) filled[name] = ADDED_LEG_DEFAULTS[name](leg);
  return filled as Leg;
}

/**
 * A set published before legs carried the fields above is still served until the next round
 * replaces it (an API answering 500 in between would be worse), but read as what it is. Legs
 * observed at unknown times have a price spread nothing vouches for, so `price_spread_bps` becomes
 * `null` (`observation_time_unknown`, or `price_missing` as before). A set published before items
 * carried `persistence` says nothing about it: every figure reads as unknown.
 */
const storedOpportunitySchema = opportunitySchema
  .extend({
    long: storedLegSchema,
    short: storedLegSchema,
    price_spread_unavailable_reason: opportunitySchema.shape.price_spread_unavailable_reason.optional(),
    persistence: opportunitySchema.shape.persistence.optional(),
  })
  .transform((item): Opportunity => {
    if (isCurrent(item)) return item;
    if (legsCurrent(item)) return { ...item, persistence: item.persistence ?? UNKNOWN_PERSISTENCE } as Opportunity;
    const { long, short } = item;
    const timesKnown = long.observed_at !== undefined && short.observed_at !== undefined && item.price_spread_unavailable_reason !== undefined;
    // Only whether a price is there matters with both times unknown, so the venue unit will do.
    const spread = timesKnown
      ? { price_spread_bps: item.price_spread_bps, price_spread_unavailable_reason: item.price_spread_unavailable_reason }
      : priceSpread({ unitPrice: long.mark_price, observedAt: null }, { unitPrice: short.mark_price, observedAt: null });
    const persistence = item.persistence ?? UNKNOWN_PERSISTENCE;
    return opportunitySchema.parse({ ...item, long: currentLeg(long), short: currentLeg(short), ...spread, persistence });
  });

type StoredOpportunity = z.input<typeof storedOpportunitySchema>;

function isCurrent(item: StoredOpportunity): item is Opportunity {
  return legsCurrent(item) && item.persistence !== undefined;
}

function legsCurrent(item: StoredOpportunity): boolean {
  const complete = (leg: StoredOpportunity["long"]) => ADDED.every((name) => leg[name] !== undefined);
  return complete(item.long) && complete(item.short) && item.price_spread_unavailable_reason !== undefined;
}

const packedSetSchema = z.object({
  format: z.literal(2),
  keys: z.array(z.string()),
  legs: z.array(z.unknown()),
  rows: z.array(z.array(z.unknown())),
});

/** Everything of an item but its legs, as this version writes it. */
const pairSchema = opportunitySchema.omit({ long: true, short: true });

function unpackRows({ keys, legs, rows }: z.infer<typeof packedSetSchema>): Opportunity[] {
  const readLegs = legs.map((leg) => currentLeg(storedLegSchema.parse(leg)));
  const legAt = (value: unknown) => {
    const leg = typeof value === "number" ? readLegs[value] : undefined;
    if (!leg) throw new Error(`a stored opportunity refers to leg ${String(value)}, which the set does not have`);
    return leg;
  };
  return rows.map((row) => {
    const fields: Record<string, unknown> = {};
    keys.forEach((key, i) => {
      if (key !== "long" && key !== "short") fields[key] = row[i];
    });
    const pair = pairSchema.parse(fields);
    // Rebuilt in the stored key order, which is the documented one, with the legs shared.
    const item: Record<string, unknown> = {};
    keys.forEach((key, i) => {
      item[key] = key === "long" || key === "short" ? legAt(row[i]) : pair[key as keyof typeof pair];
    });
    return item as Opportunity;
  });
}
