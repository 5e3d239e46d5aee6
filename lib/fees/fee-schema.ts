import { z } from "zod";
import { VENUE_IDS, type VenueId } from "@/lib/market/model/types";

/**
 * The highest taker fee an account may set: 1 %. Every venue's base tier is well under 0.1 %, so a
 * larger number is a percent typed as a decimal (0.05 meaning 0.05 %), which is refused, not charged.
 */
export const MAX_ACCOUNT_FEE = 0.01;

/** An account's taker fee on a venue, as a decimal: 0.0004 is 0.04 %. */
export const accountFeeSchema = z
  .number("Must be a number, or null to fall back to the venue's base tier")
  .min(0, "Must be at least 0")
  .max(MAX_ACCOUNT_FEE, `Must be at most ${MAX_ACCOUNT_FEE} (1 %): fees are decimals, 0.0004 is 0.04 %`);

/** The body of PATCH /v1/account/fees: venues to change, each to a fee or to null (the venue's own again). */
export const accountFeesUpdateSchema = z
  .strictObject(
    Object.fromEntries(
      VENUE_IDS.map((id) => [id, accountFeeSchema.nullable().optional().describe(`Your taker fee on ${id}, decimal; null clears it.`)]),
    ) as Record<VenueId, z.ZodOptional<z.ZodNullable<typeof accountFeeSchema>>>,
  )
  .refine((body) => Object.keys(body).length > 0, "Name at least one exchange")
  .meta({ minProperties: 1 })
  .describe("Exchanges to change: each to a taker fee (decimal, 0 to 0.01) or to null to fall back to the venue's base tier. Others are left as they are.");
export type AccountFeesUpdate = z.infer<typeof accountFeesUpdateSchema>;

export const venueFeeSchema = z.object({
  exchange: z.string(),
  venue_taker_fee: z
    .number()
    .nonnegative()
    .describe("The venue's base-tier taker fee as last ingested for its listed markets, or 0.0006 (the highest base tier) where it states none."),
  venue_taker_fee_source: z.enum(["venue_base_tier", "default"]),
  account_taker_fee: z.number().nonnegative().nullable().describe("Your own fee on this venue; null when you set none."),
  account_fee_updated_at: z.iso.datetime().nullable().describe("When you last set it, ISO 8601 UTC."),
  taker_fee: z.number().nonnegative().describe("What quotes and simulations charge: yours when set, else the venue's."),
});
export type VenueFee = z.infer<typeof venueFeeSchema>;

export const venueFeesSchema = z.object({
  items: z.array(venueFeeSchema).describe("Venues with markets in the current set, and any venue you set a fee on, in the service's venue order."),
});
export type VenueFees = z.infer<typeof venueFeesSchema>;

/**
 * A fee typed into the Trading settings form, in percent ("0.04" or "0.04 %"), as a decimal; "" is
 * null (clear). The form asks for percent because venues' fee schedules print percent; the API
 * takes decimals like every other rate it serves. Anything else is a message for the field.
 */
export function parsePercentFee(text: string): { fee: number | null } | { error: string } {
  const trimmed = text.trim().replace(/\s*%$/, "");
  if (trimmed === "") return { fee: null };
  if (!/^\d+(\.\d+)?$/.test(trimmed)) return { error: "Enter a percent such as 0.04, or leave it empty" };
  const percent = Number(trimmed);
  if (percent > MAX_ACCOUNT_FEE * 100) return { error: `At most ${MAX_ACCOUNT_FEE * 100} %` };
  // Percent to decimal without float noise: 0.04 / 100 is 0.0004, not 0.00039999999999999996.
  return { fee: Number((percent / 100).toPrecision(12)) };
}
