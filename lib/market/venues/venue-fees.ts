import { z } from "zod";
import { HIP3_VENUE_IDS, type Hip3VenueId } from "../model/hip3-venues";
import type { VenueId } from "../model/types";

/**
 * A venue's published base-tier perpetual fees: the tier of a new account with no volume, no token
 * holdings and no referral; decimals (0.0005 = 0.05 %), a negative maker is a rebate.
 */
export interface VenueFeeSchedule {
  maker: number;
  taker: number;
  /** Where the figures were read (the venue's page, or the copy of it that was read). */
  source: string;
  /** YYYY-MM-DD: the date the source states (its own date or when it was last checked), else the day it was read here. */
  asOf: string;
}

/**
 * Each venue's published schedule, from the fee survey behind this table (`fees/FEES.md` of the
 * shared venue-fixture collection, which cites each venue's page) and, where that survey found
 * none, the venue's own fee page as stored (Extended, CoinEx, Phemex, ApeX Omni). `null`: no usable published figure was found; such a venue's markets keep the
 * taker fee their connector reads (ccxt's market `taker`, which for several venues is a placeholder,
 * or the venue's own row), flagged `ccxt_fallback` on GET /v1/exchanges.
 */
export const VENUE_FEE_SCHEDULES: Readonly<Record<VenueId, VenueFeeSchedule | null>> = {
  binance: { maker: 0.0002, taker: 0.0005, source: "https://www.binance.com/en/fee/futureFee", asOf: "2026-10-12" },
  bybit: { maker: 0.0002, taker: 0.00055, source: "https://www.bybit.com/en/help-center/article/Trading-Fee-Structure", asOf: "2026-10-16" },
  okx: { maker: 0.0002, taker: 0.0005, source: "https://www.okx.com/fees", asOf: "2026-10-16" },
  bitget: {
    maker: 0.0002,
    taker: 0.0006,
    source: "https://www.bitget.com/support/articles/12560603820668 (Futures Trading Fees, Limits, and Rules)",
    asOf: "2025-01-16",
  },
  gate: null,
  hyperliquid: {
    maker: 0.00015,
    taker: 0.00045,
    source: "https://hyperliquid.gitbook.io/hyperliquid-docs/trading/fees (tier 0, as copied at hypernode-docs.polynode.dev/research/fees)",
    asOf: "2026-12-01",
  },
  dydx: { maker: 0.0001, taker: 0.0005, source: "https://docs.dydx.exchange/introduction-trading_fees (tier 1)", asOf: "2026-12-01" },
  aster: null,
  lighter: { maker: 0, taker: 0, source: "https://apidocs.lighter.xyz/docs/account-types (Standard account, the default)", asOf: "2026-12-01" },
  paradex: { maker: 0, taker: 0, source: "https://docs.paradex.trade/trading/trading-fee (Retail profile, the default)", asOf: "2026-12-01" },
  extended: {
    maker: 0,
    taker: 0.00025,
    source: "https://docs.extended.exchange/extended-resources/trading/trading-fees-and-rebates",
    asOf: "2026-12-01",
  },
  grvt: { maker: 0.0003, taker: 0.0005, source: "https://grvt.gitbook.io/grvt/trading/fees (Level 1 futures)", asOf: "2026-12-01" },
  backpack: null,
  mexc: { maker: 0, taker: 0.0004, source: "https://www.mexc.com/fee", asOf: "2026-10-16" },
  kucoinfutures: null,
  bingx: { maker: 0.0002, taker: 0.0005, source: "https://bingx.com/en/support/costs/futures", asOf: "2026-10-16" },
  htx: null,
  bitmart: null,
  deribit: {
    maker: 0,
    taker: 0.0005,
    source: "https://support.deribit.com/hc/en-us/articles/25944746248989-Fees (USDC perpetuals; as summarised in api-evangelist/deribit finops.yml)",
    asOf: "2026-12-01",
  },
  bitmex: null,
  coinex: {
    maker: 0.0003,
    taker: 0.0005,
    source: "https://support.coinex.com/hc/en-us/articles/900004308783-How-to-Get-Fee-Discount (VIP0 futures)",
    asOf: "2026-12-01",
  },
  phemex: { maker: 0.0001, taker: 0.0006, source: "https://phemex.com/user-guides/how-are-trading-fees-calculated", asOf: "2026-12-01" },
  woo: null,
  krakenfutures: {
    maker: 0.0002,
    taker: 0.0005,
    source: "https://www.kraken.com/features/fee-schedule (futures tier 1; as cited by the loweef Crypto Futures Fee Index)",
    asOf: "2026-10-12",
  },
  // No published Derive schedule was found; each instrument states its own `taker_fee_rate` (plus a
  // flat `base_fee` in USD per trade), which the connector reads.
  derive: null,
  drift: {
    maker: -0.0001,
    taker: 0.001,
    source: "https://docs.drift.trade/trading/trading-fees (perp tier 1; SOL, BTC and ETH-PERP carry a 75 % reduction, not applied here)",
    asOf: "2026-12-03",
  },
  pacifica: {
    maker: 0.00015,
    taker: 0.0004,
    source: "https://docs.pacifica.fi/trading-on-pacifica/trading-fees (fee level 0, as ccxt 4.5.84 quotes it; the same figures as Pacifica's recorded account reply)",
    asOf: "2026-01-27",
  },
  // No published Orderly schedule was found (the fee survey: not found): a trade pays Orderly's base
  // fee plus the fee of the builder whose front end placed it, and no row of the public API states
  // either, so Orderly's markets carry no fee.
  orderly: null,
  // No published BTSE futures schedule was read (the fee survey: not found; ccxt points to
  // support.btse.com article 43000064283): ccxt's contract taker (0.055 %) is used, flagged as such.
  btse: null,
  // The fee survey found no WEEX schedule; each contract row states its own `takerFeeRate` (0.08 %
  // on the documented ETHUSDT), which the connector reads.
  weex: null,
  // Variational charges no maker or taker fee: its one maker quotes at a spread (FEES.md found no
  // schedule). The connector charges each market half its stated `base_spread_bps` instead, the cost
  // a taker pays against the mark on each fill (variational.ts `variationalSpreadCost`).
  variational: null,
  // edgeX's fee page gives no numbers (tiers by 30-day volume, "see VIP page"; FEES.md); each
  // contract states its own `defaultTakerFeeRate`, which the connector reads.
  edgex: null,
  // No Ethereal fee page was read (FEES.md); each product states its own `makerFee`/`takerFee`,
  // which the connector reads (the spec's example values, 0.001/0.004, are placeholders).
  ethereal: null,
  hibachi: {
    maker: 0,
    taker: 0.00045,
    source:
      "https://github.com/hibachi-xyz/hibachi_sdk/blob/7d78e07d30b5654269d13d6276c6c978c2f77c34/python/tests/unit/data/response.exchange_info.0.json (GET /market/exchange-info feeConfig in Hibachi's own SDK test data: tradeMakerFeeRate 0, tradeTakerFeeRate 0.00045; no fee page was found, and ccxt 4.5.84 says 0.00015/0.00045)",
    asOf: "2025-10-22",
  },
  // No Bitfinex derivatives schedule was found on Bitfinex's own pages; third-party summaries
  // (kdj.com) disagree (taker 0.065 % to 0.075 %, maker -0.02 % to -0.025 %). The connector passes
  // ccxt's market `taker` on (its Bitfinex default, 0.2 %, a spot figure).
  bitfinex: null,
  // Crypto.com's help page (help.crypto.com/en/articles/4894437) points to a "Fees & Limits" page
  // that was not read; the connector passes ccxt's market `taker` on (0.5 %, its spot default).
  cryptocom: null,
  // No WhiteBIT futures fee page was found (its blog's fee articles give spot's 0.1 % and the WBT
  // discounts; a third-party summary, fitgap, says maker 0.01 %, taker up to 0.055 % by pair). The
  // connector passes on the taker of the perpetual's own row in WhiteBIT's market list (via ccxt).
  whitebit: null,
  // No HitBTC futures fee page was read; the connector passes on each contract's own `take_rate`
  // from the symbol list (0.05 % on ccxt's documented perpetual row, not a spot figure).
  hitbtc: null,
  // No Toobit fee schedule was found (ccxt points to toobit.com/fee, not read; FEES.md "not
  // found"); its market list carries no taker, so none is charged (null).
  toobit: null,
  // ApeX's announcement of Omni's launch fees names its standard rates, which apply once the launch
  // discount ended (2024-09-15): 5 bps taker, 2 bps maker. No later fee page was found. ccxt's market
  // has the two the other way round (taker 0.02 %, maker 0.05 %), so its figure is not used.
  apex: {
    maker: 0.0002,
    taker: 0.0005,
    source:
      "https://apex.exchange/blog/detail/Enhancing-Your-Trading-Experience-on-ApeX-Omni-Fee-Structure-Updates (standard rates after the launch discount)",
    asOf: "2024-07-18",
  },
  ...hip3Fees(),
};

/**
 * Every HIP-3 dex's base tier: twice the main dex's ("HIP-3 fees are not currently configurable, so
 * all deployers are akin to the same base fee schedule", Felix). Not modelled, so these overstate:
 * USDH-margined dexes' 20 % lower taker fee, and deployers' per-coin `deployerFeeScale` and growth
 * mode, whose formula Hyperliquid does not publish.
 */
function hip3Fees(): Record<Hip3VenueId, VenueFeeSchedule> {
  const schedule: VenueFeeSchedule = {
    maker: 0.0003,
    taker: 0.0009,
    source: "https://usefelix.gitbook.io/perps/getting-started/fees (HIP-3 base tier, Felix, a HIP-3 deployer; copy date not shown)",
    asOf: "2026-12-03",
  };
  return Object.fromEntries(HIP3_VENUE_IDS.map((venue) => [venue, schedule])) as Record<Hip3VenueId, VenueFeeSchedule>;
}

/** The venue's published schedule, or null where none was found (or the venue is not one of ours). */
export function venueFeeSchedule(venue: string): VenueFeeSchedule | null {
  return Object.hasOwn(VENUE_FEE_SCHEDULES, venue) ? (VENUE_FEE_SCHEDULES[venue as VenueId] ?? null) : null;
}

/**
 * The taker fee a venue's market is charged in net APR and quotes: the published base tier where
 * known, else what the connector read for the market (`stated`: ccxt's `taker` or the venue's row).
 */
export function venueTakerFee(venue: string, stated: number | null | undefined): number | null {
  return venueFeeSchedule(venue)?.taker ?? stated ?? null;
}

export const venueFeeSchema = z
  .object({
    maker: z.number().nullable().describe("Base-tier maker fee, a decimal (0.0002 = 0.02 %; negative = rebate); `null` under `ccxt_fallback`."),
    taker: z.number().nonnegative().nullable().describe("Base-tier taker fee, a decimal; what `net_apr` and quotes charge. `null` under `ccxt_fallback`."),
    source: z.string().nullable().describe("Where the figures were read (the venue's fee page); `null` under `ccxt_fallback`."),
    as_of: z.iso
      .datetime()
      .nullable()
      .describe("The source's date (its own, or when it was last checked), else when it was read, at 00:00 UTC; `null` under `ccxt_fallback`."),
    fee_source: z
      .enum(["schedule", "ccxt_fallback"])
      .describe(
        "`schedule`: the venue's published base tier, used for every market of the venue. `ccxt_fallback`: no published schedule " +
          "was found; each market is charged the taker fee its connector reads (ccxt's market value, often a placeholder, or the " +
          "venue's own row), or the service's default when none.",
      ),
  })
  .describe("The venue's base-tier fees as `net_apr` and quotes use them.");
export type VenueFee = z.infer<typeof venueFeeSchema>;

/** A venue's fees as GET /v1/exchanges lists them. */
export function venueFee(venue: string): VenueFee {
  const schedule = venueFeeSchedule(venue);
  return schedule
    ? { maker: schedule.maker, taker: schedule.taker, source: schedule.source, as_of: `${schedule.asOf}T00:00:00.000Z`, fee_source: "schedule" }
    : { maker: null, taker: null, source: null, as_of: null, fee_source: "ccxt_fallback" };
}
