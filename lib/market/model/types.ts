import { z } from "zod";
import { HIP3_VENUE_IDS } from "./hip3-venues";
import { PRICE_OBSERVATION_TOLERANCE_MS, priceSpreadUnavailableReasonSchema } from "./price-spread";

/** How long a change of funding interval is flagged on the legs (`interval_changed_at`). */
export const INTERVAL_CHANGE_RECENT_MS = 7 * 86_400_000;

/**
 * Venues with a live connector (the API's `exchange` values): lowercase ccxt ids, and Hyperliquid's
 * HIP-3 dexes as `hyperliquid:<dex>` (model/hip3-venues.ts says why a colon and why a static list).
 */
export const VENUE_IDS = ["binance", "bybit", "okx", "bitget", "gate", "hyperliquid", "dydx", "aster", "lighter", "paradex", "extended", "grvt", "backpack", "mexc", "kucoinfutures", "bingx", "htx", "bitmart", "deribit", "bitmex", "coinex", "phemex", "woo", "krakenfutures", "derive", "drift", "pacifica", "orderly", "btse", "weex", "variational", "hibachi", "edgex", "ethereal", "bitfinex", "cryptocom", "whitebit", "hitbtc", "toobit", "apex", ...HIP3_VENUE_IDS] as const;
export const venueIdSchema = z.enum(VENUE_IDS);
export type VenueId = z.infer<typeof venueIdSchema>;

/**
 * Where a funding interval came from, so a consumer can tell a value the venue states from one
 * derived from its settlement schedule:
 * - `venue`: a field of the venue's payload (Bybit `fundingIntervalHour`, Binance `fundingInfo`,
 *   Bitget `fundingRateInterval`, Gate `funding_interval`, Hyperliquid `predictedFundings`, BitMart
 *   `funding_interval_hours`, BitMEX `fundingInterval`, Paradex `funding_period_hours`; the others
 *   in lib/market/README.md's interval table);
 * - `venue-default`: Binance's `fundingInfo` lists only symbols whose interval was adjusted, so a
 *   listed-elsewhere symbol missing from it runs the venue's documented 8h default;
 * - `schedule`: derived from settlement timestamps (OKX `nextFundingTime − fundingTime`, Binance
 *   `nextFundingTime` alignment against the payload time);
 * - `interest-rate`: Binance's per-interval interest component (0.03 %/day ÷ settlements per day)
 *   picking between intervals the schedule leaves open;
 * - `protocol`: the venue's documented protocol rule fixes the interval and no field states it:
 *   Hyperliquid settles hourly (used only when `predictedFundings` did not answer); dYdX v4,
 *   Lighter and Extended settle every hour, on the hour;
 * - `continuous`: the venue settles no interval: funding accrues continuously and the venue quotes
 *   it as a rate over a fixed window, which is then the "interval" (Deribit `funding_8h`, the
 *   funding of the trailing 8 hours; Deribit's funding specification expresses every rate per 8 h).
 *   Such a market has no `nextFundingAt`;
 * - `history`: derived from consecutive settlement times in the venue's funding history, read back
 *   by a backfill (lib/history/derive-intervals.ts); only interval changes carry it, never a live snapshot.
 */
export const INTERVAL_SOURCES = ["venue", "venue-default", "schedule", "interest-rate", "protocol", "continuous", "history"] as const;
export const intervalSourceSchema = z.enum(INTERVAL_SOURCES);
export type IntervalSource = z.infer<typeof intervalSourceSchema>;

/** How a venue's numbers reach the service (lib/market/ingest/feed-status.ts `Transport`). */
export const transportSchema = z.enum(["stream", "poll"]);

/** A venue id's shape: a lowercase name, and for a HIP-3 dex a colon and the dex's name. */
export const VENUE_ID_PATTERN = /^[a-z][a-z0-9]*(:[a-z0-9]+)?$/;

/**
 * What a market's underlying is. Absent means `crypto`, as on every venue but Hyperliquid's HIP-3
 * dexes, which also list equities, indices, commodities and currencies (model/underlying-class.ts).
 * Markets pair only within one class: a main-dex `SPX` (the SPX6900 memecoin) is not the S&P 500.
 */
export const UNDERLYING_CLASSES = ["crypto", "equity", "index", "commodity", "fx", "other"] as const;
export const underlyingClassSchema = z.enum(UNDERLYING_CLASSES);
export type UnderlyingClass = z.infer<typeof underlyingClassSchema>;

/**
 * When a market trades, where the venue states it. Absent: around the clock (crypto).
 * `always-off-hours-oracle`: trades 24/7 although its underlying market closes; while it is closed
 * the venue's oracle prices it from its own order book (HIP-3 equity, index and commodity perps,
 * per docs.trade.xyz), so funding then tracks the venue's book, not the underlying.
 */
export const TRADING_HOURS_VALUES = ["always-off-hours-oracle"] as const;
export const tradingHoursSchema = z.enum(TRADING_HOURS_VALUES);
export type TradingHours = z.infer<typeof tradingHoursSchema>;

const epochMs = z.number().int().nonnegative();
const positive = z.number().positive();
const nonNegative = z.number().nonnegative();

/**
 * One linear perpetual on one venue at one refresh. Funding is a decimal per interval (0.0001 =
 * 0.01 %); times are epoch milliseconds; USD amounts treat USDT and USDC as dollars.
 *
 * Base assets are normalised across venues: `1000PEPE` (Binance, Bybit), `kPEPE` (Hyperliquid) and
 * `PEPE` (OKX, Gate) all become `base: "PEPE"`, with `contractMultiplier` saying how many units of
 * the asset one venue unit is (1000). Funding is a fraction of notional, so rates compare directly
 * whatever the multiplier; only per-unit prices need dividing by it. Keeping one base is what lets
 * the opportunity scan pair `1000PEPE` on Binance with `PEPE` on OKX, which is the same trade.
 */
export const marketSnapshotSchema = z.object({
  exchange: z.string().regex(VENUE_ID_PATTERN),
  /** ccxt unified symbol, e.g. `BTC/USDT:USDT`, `1000PEPE/USDT:USDT`. */
  market: z.string().min(1),
  /** The venue's own id for the market, e.g. `BTCUSDT`, `BTC-USDT-SWAP`, `BTC_USDT`. */
  venueMarketId: z.string().min(1),
  /** Normalised asset, identical on every venue (`BTC`, `PEPE`). */
  base: z.string().min(1),
  /** The base as the venue names it (`1000PEPE`, `kPEPE`). */
  venueBase: z.string().min(1),
  contractMultiplier: positive,
  quote: z.string().min(1),
  settle: z.string().min(1),
  /** Decimal rate for the current interval; `null` when the venue gave no rate this refresh. */
  fundingRate: z.number().nullable(),
  /**
   * The venue's own forecast of a rate, published apart from `fundingRate` (Hyperliquid
   * `predictedFundings`, Gate `funding_rate_indicative`, OKX `nextFundingRate`); null or absent where
   * it publishes none. lib/market/README.md says which rate each venue's forecast is of.
   */
  predictedFundingRate: z.number().nullable().optional(),
  /** The largest and smallest rate per interval the venue allows; null or absent where it states none. */
  rateCap: z.number().nullable().optional(),
  rateFloor: z.number().nullable().optional(),
  /** `null` when the venue's data does not determine it; never filled in by assumption. */
  fundingIntervalHours: positive.nullable(),
  fundingIntervalSource: intervalSourceSchema.nullable(),
  nextFundingAt: epochMs.nullable(),
  /** Per venue unit (per 1000 PEPE on a `1000PEPE` market). */
  markPrice: positive.nullable(),
  indexPrice: positive.nullable(),
  openInterestUsd: nonNegative.nullable(),
  volume24hUsd: nonNegative.nullable(),
  /** Decimal taker fee of the venue's base tier (0.0005 = 0.05 %). */
  takerFee: nonNegative.nullable(),
  /** When the venue produced the numbers (its payload time, else when we fetched them). */
  observedAt: epochMs,
  /**
   * How the numbers arrived: `stream` when a venue WebSocket message last changed them, `poll` (or
   * absent) when a REST answer did (lib/market/ingest/feed-status.ts).
   */
  transport: transportSchema.optional(),
  /**
   * When the market's funding interval last changed, if within INTERVAL_CHANGE_RECENT_MS; null or
   * absent otherwise. Not the venue's: known from stored history (lib/market/ingest) or the sandbox.
   */
  intervalChangedAt: epochMs.nullable().optional(),
  /**
   * The market's last settlement this service recorded (lib/market/ingest), else the venue's own
   * statement of one (Deribit's trailing 8 hours, Orderly's dated last rate); null or absent otherwise.
   */
  lastSettlement: z.object({ rate: z.number(), at: epochMs }).nullable().optional(),
  /** What the market tracks; absent: a crypto asset. Pairing keeps classes apart (UNDERLYING_CLASSES). */
  underlyingClass: underlyingClassSchema.optional(),
  /** When it trades, where the venue states it (tradingHoursSchema); absent: around the clock. */
  tradingHours: tradingHoursSchema.optional(),
});
export type MarketSnapshot = z.infer<typeof marketSnapshotSchema>;

/** Why markets a venue listed did not become snapshots, or became ones without a rate. */
export interface VenueExclusions {
  /** Spot, inverse, delivery or non-USD-settled markets. */
  notLinearPerp: number;
  /** Listed but not trading (pre-launch, settling, delisting, suspended). */
  inactive: number;
  /** Funding rows for ids the market list did not contain. */
  unlisted: number;
  /** Rows with a present but unusable value (non-numeric rate, negative price, …). */
  invalid: number;
  /** Eligible markets the funding payload said nothing about (kept, with `fundingRate: null`). */
  noFundingRow: number;
}

export type VenueSnapshotResult =
  | {
      status: "ok";
      exchange: VenueId;
      /** Epoch ms when the refresh started. */
      fetchedAt: number;
      snapshots: MarketSnapshot[];
      excluded: VenueExclusions;
      /** Optional data (volume, open interest, interval tables) that could not be read. */
      warnings: string[];
    }
  | {
      status: "stale";
      exchange: VenueId;
      fetchedAt: number;
      error: string;
    };

const legSchema = z.object({
  exchange: z.string(),
  market: z.string(),
  funding_rate: z.number(),
  funding_interval_hours: positive,
  funding_interval_source: intervalSourceSchema
    .nullable()
    .describe(
      "Where the interval was read from: `venue` (a field of the venue's payload), `venue-default` (its documented default for a " +
        "market its interval table leaves out), `schedule` (derived from settlement times), `interest-rate` (Binance's per-interval " +
        "interest component), `protocol` (a protocol rule) or `continuous` (a venue that accrues funding continuously, quoted " +
        "over the window given as the interval). `null` only in a set published before legs carried it.",
    ),
  funding_rate_per_hour: z
    .number()
    .describe("`funding_rate` divided by `funding_interval_hours`: legs of different intervals compare at a glance."),
  predicted_funding_rate: z
    .number()
    .nullable()
    .describe(
      "The venue's own forecast of a rate where it publishes one apart from `funding_rate` (decimal per interval): Hyperliquid's " +
        "predicted rate for the next hour, Gate's indicative rate, OKX's next-period rate. `null` where the venue publishes none.",
    ),
  last_settled_rate: z.number().nullable().describe("The last settlement's rate this service recorded for this market; `null` before the first."),
  last_settled_at: z.iso.datetime().nullable().describe("When that settlement happened, ISO 8601 UTC."),
  rate_cap: z.number().nullable().describe("The largest rate per interval the venue allows (decimal); `null` where it states none."),
  rate_floor: z.number().nullable().describe("The smallest rate per interval the venue allows (decimal, negative); `null` where it states none."),
  at_cap: z
    .boolean()
    .describe(
      "True when the current or the predicted rate sits at the cap or the floor: the spread is clamped, and venues shorten the " +
        "interval of a market that settles there (see `interval_changed_at`).",
    ),
  /** ISO 8601 UTC. */
  next_funding_at: z.iso.datetime().nullable(),
  mark_price: positive.nullable(),
  open_interest_usd: nonNegative.nullable(),
  volume_24h_usd: nonNegative.nullable(),
  interval_changed_at: z.iso
    .datetime()
    .nullable()
    .describe(
      "When this leg's funding interval last changed, ISO 8601 UTC, if that was within the last 7 days (a venue shortening " +
        "an interval at its rate cap, for one); `null` otherwise. GET /v1/funding-intervals lists the changes.",
    ),
  observed_at: z.iso
    .datetime()
    .nullable()
    .describe(
      "When this leg's numbers were observed, ISO 8601 UTC: the venue's own time for them where its payload has one, " +
        "else when the service fetched them. `null` only in a set published before legs carried their time.",
    ),
  transport: transportSchema
    .default("poll")
    .describe(
      "How this leg's numbers reached the service: `stream` when a message of the venue's public WebSocket last changed them, " +
        "`poll` when a REST answer did (venues without a usable stream, whole rounds, a stream fallen back to polling; also every " +
        "leg of a set published before legs carried it). GET /v1/exchanges gives each venue's current transport.",
    ),
  underlying_class: underlyingClassSchema
    .optional()
    .describe(
      "What the market tracks, where the venue lists more than crypto assets (Hyperliquid's HIP-3 dexes): `crypto`, `equity`, " +
        "`index`, `commodity`, `fx` or `other` (a ticker not yet classified, never paired with crypto). Absent: a crypto asset. " +
        "Both legs of an opportunity always have the same class.",
    ),
  trading_hours: tradingHoursSchema
    .optional()
    .describe(
      "When the market trades, where the venue says: `always-off-hours-oracle` is a HIP-3 equity, index or commodity perpetual " +
        "that trades 24/7 while its underlying market closes, its oracle then pricing it from the dex's own order book. Absent: " +
        "around the clock.",
    ),
});
export type OpportunityLeg = z.infer<typeof legSchema>;

const toleranceSeconds = PRICE_OBSERVATION_TOLERANCE_MS / 1000;

/**
 * How steadily an opportunity's spread has paid, from the stored history of its two markets rather
 * than the last round (lib/market/persistence/, definitions in lib/market/README.md "Persistence").
 * Computed once per completed hour; a figure the history cannot support is `null`, never estimated.
 */
export const persistenceSchema = z
  .object({
    as_of: z.iso
      .datetime()
      .nullable()
      .describe(
        "End of the last whole UTC hour the figures include, ISO 8601 UTC: they are computed once an hour completes. " +
          "`null` when none were computed for this pair's markets yet (no history, or a set published before the field existed).",
      ),
    positive_since: z.iso
      .datetime()
      .nullable()
      .describe(
        "Start of the unbroken run of hours, ending with the last whole hour, in which the net spread (the short leg's mean " +
          "annualised funding of the hour minus the long leg's, before fees) was positive, ISO 8601 UTC. An hour in which a leg " +
          "has no observation ends the run. A run longer than the 30 days examined is followed from one hour's computation to the " +
          "next; where it could not be, this is the start of those 30 days (positive at least since then). `null` when the last " +
          "whole hour's net spread was not positive or not observed.",
      ),
    apr_median_7d: z
      .number()
      .nullable()
      .describe(
        "Median of the hourly net spread (percent per year, as `apr`) over the 168 whole hours before `as_of`, counting the hours " +
          "in which both legs were observed; `null` when fewer than 126 (75 %) were.",
      ),
    apr_median_30d: z
      .number()
      .nullable()
      .describe("The same median over the 720 whole hours (30 days) before `as_of`; `null` when fewer than 540 (75 %) hours have both legs."),
    paid_share_7d: z
      .number()
      .min(0)
      .max(1)
      .nullable()
      .describe(
        "Share of the settled hours of the 168 before `as_of` in which the recorded settlements paid this position (short leg's " +
          "settled rate per hour above the long leg's; each settlement's rate divided by its interval over the hours it covers, so " +
          "1h and 8h legs compare). Counts only hours both legs' settlements cover; `null` when fewer than 126 (75 %) are.",
      ),
    apr_stddev_7d: z
      .number()
      .nonnegative()
      .nullable()
      .describe(
        "Population standard deviation of the same hourly net spreads as `apr_median_7d` (percent per year); `null` when that median is.",
      ),
  })
  .describe(
    "How persistent the spread has been, from the stored hourly history and settlements of both markets (not the last round). " +
      "`sort=stability` orders by `paid_share_7d`, then `apr_stddev_7d`.",
  );
export type Persistence = z.infer<typeof persistenceSchema>;

/** What an opportunity carries before (or without) stored history: every figure unknown. */
export const UNKNOWN_PERSISTENCE: Persistence = Object.freeze({
  as_of: null,
  positive_since: null,
  apr_median_7d: null,
  apr_median_30d: null,
  paid_share_7d: null,
  apr_stddev_7d: null,
});

/** One item of GET /v1/opportunities as published; served with its `stale` flags (servedOpportunitySchema). */
export const opportunitySchema = z.object({
  id: z.string(),
  symbol: z.string(),
  type: z.literal("perp_perp"),
  long: legSchema,
  short: legSchema,
  /** Gross funding APR, percent per year. */
  apr: z.number(),
  /** `apr` after the taker-fee round trip spread over the holding period, percent per year. */
  net_apr: z.number(),
  /** Short minus long funding, each rescaled to 8 hours; a decimal like `funding_rate`. */
  funding_spread_8h: z.number(),
  price_spread_bps: z
    .number()
    .nullable()
    .describe(
      "(short mark − long mark) / their mean, in basis points, per underlying unit; positive when the short leg is dearer. " +
        `Given only when both legs have a mark price and were observed at most ${toleranceSeconds} s apart; ` +
        "otherwise `null`, and `price_spread_unavailable_reason` says why.",
    ),
  price_spread_unavailable_reason: priceSpreadUnavailableReasonSchema
    .nullable()
    .describe(
      "Why `price_spread_bps` is `null`; `null` when the spread is given. `price_missing`: a leg has no mark price. " +
        `\`legs_observed_apart\`: the legs were observed more than ${toleranceSeconds} s apart (see each leg's \`observed_at\`), ` +
        "so a spread would compare different moments. `observation_time_unknown`: when a leg was observed is not known.",
    ),
  /** The smaller leg's; `null` when either leg's is unknown. */
  open_interest_usd: nonNegative.nullable(),
  volume_24h_usd: nonNegative.nullable(),
  /** ISO 8601 UTC of the older leg's observation. */
  updated_at: z.iso.datetime(),
  /**
   * Mean `apr` over the last 1 and 7 days, from the stored hourly history of both legs (short
   * leg's mean annualised funding minus the long leg's); `null` while either leg has no history in
   * the window. Absent where no history is kept (sandbox), so a spike can be told from a steady spread.
   */
  apr_1d_avg: z.number().nullable().optional(),
  apr_7d_avg: z.number().nullable().optional(),
  persistence: persistenceSchema,
});
export type Opportunity = z.infer<typeof opportunitySchema>;

const staleLeg = z
  .boolean()
  .describe(
    "True when this leg's numbers are older than three ingestion intervals (`stale_after_seconds` of GET /v1/exchanges) at the " +
      "moment the answer was made: more than that has passed since its `observed_at` (since `meta.data_as_of` for a leg of " +
      "unknown time). Judged when the answer is made, and no answer is reused past the moment one of its legs turns stale. " +
      "A stale leg is still listed, flagged, rather than silently served or silently dropped: its rate may no longer hold.",
  );

const ageSeconds = z
  .number()
  .int()
  .nonnegative()
  .nullable()
  .describe(
    "Whole seconds from `observed_at` to the moment the answer was made (0 when the venue's clock is ahead of the service's); " +
      "`null` when the leg's observation time is unknown. Computed when the answer is made, never stored: a cached answer is " +
      "reused for at most a second, so an age may read up to a second low.",
  );

/**
 * A leg as the API and the screener serve it: as published, plus how old it is and whether it is
 * stale at the moment of serving.
 */
export const servedLegSchema = legSchema.extend({ age_seconds: ageSeconds, stale: staleLeg });
export type ServedLeg = z.infer<typeof servedLegSchema>;

/**
 * An opportunity as served (lib/market/model/leg-freshness.ts). Staleness depends on the moment of the
 * answer, not on the published set, so it is never stored: a set can outlive its venues' freshness.
 */
export const servedOpportunitySchema = opportunitySchema.extend({
  long: servedLegSchema,
  short: servedLegSchema,
  stale: z.boolean().describe("True when either leg is `stale`: check the venue on GET /v1/exchanges before acting on this opportunity."),
});
export type ServedOpportunity = z.infer<typeof servedOpportunitySchema>;
