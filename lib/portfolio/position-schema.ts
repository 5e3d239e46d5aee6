import { z } from "zod";
import { instantText, maxCharacters, storableText } from "@/lib/validation";
import { tradeTargetBody, tradeTargetFields } from "@/lib/sim/simulation-schema";

export const MAX_NOTE_LENGTH = 500;
export const POSITION_STATUSES = ["open", "closed"] as const;

const note = storableText(maxCharacters(z.string("Must be a string"), MAX_NOTE_LENGTH, `Must be at most ${MAX_NOTE_LENGTH} characters`));

/** The body of POST /v1/portfolio/positions. */
export const positionInputSchema = tradeTargetBody({
  note: note.optional().describe(`Free text, at most ${MAX_NOTE_LENGTH} characters.`),
  opened_at: instantText("date-time", "Must be an ISO 8601 date-time, e.g. 2026-11-20T08:00:00Z")
    .refine((value) => Date.parse(value) <= Date.now(), "Must not be in the future")
    .optional()
    .describe("When the position was opened (ISO 8601, in the year 2000 or later and not in the future); default now. Funding accrues from then."),
});
export type PositionInput = z.infer<typeof positionInputSchema>;

/** The body of PATCH /v1/portfolio/positions/{id}: at least one field (the document's `minProperties`). */
export const positionUpdateSchema = z
  .strictObject({
    note: note.nullable().optional().describe(`New note, at most ${MAX_NOTE_LENGTH} characters; null removes it.`),
    notional_usd: tradeTargetFields.notional_usd.optional(),
  })
  .refine((update) => update.note !== undefined || update.notional_usd !== undefined, {
    path: ["body"],
    message: "Give note or notional_usd",
  })
  .meta({ minProperties: 1 });
export type PositionUpdate = z.infer<typeof positionUpdateSchema>;

const usd = z.number().describe("US dollars.");

export const legAccrualSchema = z.object({
  exchange: z.string(),
  market: z.string(),
  taker_fee: z.number().nonnegative().describe("Decimal fee charged on each of this leg's two fills."),
  settlements: z.number().int().nonnegative().describe("Funding settlements since opening."),
  funding_income_usd: usd.describe("Funding the leg earned (negative when it paid): short +rate × notional, long −rate × notional, per settlement."),
});

export const accrualSchema = z.object({
  as_of: z.iso.datetime().describe("ISO 8601 UTC the accrual runs to: now for open positions, the closing time for closed ones."),
  long: legAccrualSchema,
  short: legAccrualSchema,
  funding_income_usd: usd.describe("Both legs' funding since opening."),
  fees_usd: usd.describe("Taker fees of the four fills: opening and closing both legs."),
  net_pnl_usd: usd.describe("funding_income_usd − fees_usd: unrealised for open positions (what closing now would realise), realised for closed ones."),
});

/** A portfolio position as the API serves it. */
export const positionSchema = z.object({
  id: z.string(),
  status: z.enum(POSITION_STATUSES),
  symbol: z.string().describe("The base asset of both legs."),
  long: z.object({ exchange: z.string(), market: z.string() }),
  short: z.object({ exchange: z.string(), market: z.string() }),
  notional_usd: tradeTargetFields.notional_usd.describe("Notional of each leg in US dollars."),
  opened_at: z.iso.datetime().describe("ISO 8601 UTC."),
  closed_at: z.iso.datetime().nullable().describe("ISO 8601 UTC; null while open."),
  entry_apr: z.number().nullable().describe("Gross APR (percent per year) of the legs when the position was added."),
  current_apr: z
    .number()
    .nullable()
    .describe("Gross APR of the current opportunity with these legs; null when there is none or the position is closed."),
  note: z.string().nullable(),
  accrual: accrualSchema,
  created_at: z.iso.datetime().describe("ISO 8601 UTC."),
  updated_at: z.iso.datetime().describe("ISO 8601 UTC."),
});
export type Position = z.infer<typeof positionSchema>;

export const portfolioTotalsSchema = z.object({
  positions: z.number().int().nonnegative(),
  open_positions: z.number().int().nonnegative(),
  open_notional_usd: usd.describe("Notional of the open positions."),
  funding_income_usd: usd.describe("Funding earned by every position."),
  fees_usd: usd.describe("Fees of every position's four fills."),
  unrealised_pnl_usd: usd.describe("Open positions' net P&L if closed now."),
  realised_pnl_usd: usd.describe("Closed positions' net P&L."),
  net_pnl_usd: usd.describe("unrealised_pnl_usd + realised_pnl_usd."),
});

export const portfolioSchema = z.object({
  items: z.array(positionSchema).describe("Open positions first, then closed ones; newest opened first within each."),
  totals: portfolioTotalsSchema,
});
