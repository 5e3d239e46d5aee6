import { z } from "zod";
import { AppError } from "@/lib/errors";
import { venueDecimal } from "./venue-decimal";
import type { BorrowPeriod, BorrowRate } from "./spot-leg";

/** The venue endpoints whose borrow-rate answers are read here. */
export type BorrowEndpoint =
  | "okx-interest-rate-loan-quota"
  | "binance-next-hourly-interest-rate"
  | "binance-cross-margin-data"
  | "bybit-interest-rate-history"
  | "bybit-loan-info"
  | "gate-uni-estimate-rate"
  | "bitget-margin-loans";

/** What a deployment needs to know of an endpoint before it calls it. */
interface BorrowEndpointInfo {
  path: string;
  /** `signed`: the venue wants an API key even though the rate is the same for everyone at a tier. */
  access: "public" | "signed";
  /** The period the venue's documentation states for the rate (tests/fixtures/carry/SOURCES.md names the pages). */
  period: BorrowPeriod;
}

export const BORROW_ENDPOINTS: Readonly<Record<BorrowEndpoint, BorrowEndpointInfo>> = {
  // "Daily borrowing rate"; `quota` is the most one account may borrow, in coin units.
  "okx-interest-rate-loan-quota": { path: "/api/v5/public/interest-rate-loan-quota", access: "public", period: "day" },
  // The next hour's estimate at the key's VIP level.
  "binance-next-hourly-interest-rate": { path: "/sapi/v1/margin/next-hourly-interest-rate", access: "signed", period: "hour" },
  // `dailyInterest` is read; `yearlyInterest` is the same rate × 365, rounded to 4 places.
  "binance-cross-margin-data": { path: "/sapi/v1/margin/crossMarginData", access: "signed", period: "day" },
  // Unified accounts; newest row first.
  "bybit-interest-rate-history": { path: "/v5/spot-margin-trade/interest-rate-history", access: "signed", period: "hour" },
  // Classic accounts: `interestRate` is a daily rate although it shares its name with hourly fields elsewhere.
  "bybit-loan-info": { path: "/v5/spot-cross-margin-trade/loan-info", access: "signed", period: "day" },
  // Isolated margin: "estimate current hourly lending rates, returned by currency"; the public
  // `/margin/uni/currency_pairs` lists the margin pairs but no rate.
  "gate-uni-estimate-rate": { path: "/margin/uni/estimate_rate", access: "signed", period: "hour" },
  // Unified account, public. The request names the coin (`?coin=BTC`); the answer does not repeat it.
  "bitget-margin-loans": { path: "/api/v3/market/margin-loans", access: "public", period: "day" },
};

type Row = { asset: string; rate: number; borrowable: number | null };

const okxBody = z.object({
  code: z.literal("0"),
  data: z.array(z.object({ basic: z.array(z.object({ ccy: z.string(), rate: venueDecimal, quota: venueDecimal })) })),
});
const binanceNextHourly = z.array(z.object({ asset: z.string(), nextHourlyInterestRate: venueDecimal }));
// `borrowLimit` is the key's VIP-level limit in coin units; `borrowable: false` means no lending at all.
const binanceCrossMargin = z.array(z.object({ coin: z.string(), borrowable: z.boolean(), dailyInterest: venueDecimal, borrowLimit: venueDecimal }));
const bybitHistory = z.object({
  retCode: z.literal(0),
  result: z.object({ list: z.array(z.object({ currency: z.string(), hourlyBorrowRate: venueDecimal, timestamp: z.number() })) }),
});
// `loanAbleAmount` is what the key may still borrow; `maxLoanAmount` is the ceiling of its tier.
const bybitLoanInfo = z.object({
  retCode: z.literal(0),
  result: z.object({ coin: z.string(), interestRate: venueDecimal, loanAbleAmount: venueDecimal }),
});

// Gate answers one rate per asked currency, keyed by the currency.
const gateEstimate = z.record(z.string(), venueDecimal);
const bitgetMarginLoans = z.object({
  code: z.literal("00000"),
  data: z.object({ dailyInterest: venueDecimal, annualInterest: venueDecimal }),
});

/*
 * Bitget states the same rate twice, per day and per year. Its documented example contradicts
 * itself (daily 0.1, annual 0.00416667: 0.1 / 24, not × 365), so the daily figure is taken only
 * where the two agree (× 365, within 1 % for the venue's rounding): an answer that swaps or
 * mislabels them is refused rather than read as a rate 876 000 times off.
 */
function consistentDaily(daily: number, annual: number): number {
  const expected = daily * 365;
  if (Math.abs(expected - annual) > 0.01 * Math.max(expected, annual)) {
    throw new AppError("VENUE_UNAVAILABLE", `bitget-margin-loans: daily ${daily} × 365 is not the stated annual ${annual}`);
  }
  return daily;
}

const READERS: Record<BorrowEndpoint, (body: unknown, asset: string | undefined) => Row[]> = {
  "okx-interest-rate-loan-quota": (body) =>
    okxBody.parse(body).data.flatMap((block) => block.basic.map((row) => ({ asset: row.ccy, rate: row.rate, borrowable: row.quota }))),
  "binance-next-hourly-interest-rate": (body) =>
    binanceNextHourly.parse(body).map((row) => ({ asset: row.asset, rate: row.nextHourlyInterestRate, borrowable: null })),
  "binance-cross-margin-data": (body) =>
    binanceCrossMargin
      .parse(body)
      .filter((row) => row.borrowable)
      .map((row) => ({ asset: row.coin, rate: row.dailyInterest, borrowable: row.borrowLimit })),
  // The history's newest row per currency is the rate now.
  "bybit-interest-rate-history": (body) => {
    const newest = new Map<string, { rate: number; timestamp: number }>();
    for (const row of bybitHistory.parse(body).result.list) {
      const seen = newest.get(row.currency);
      if (!seen || row.timestamp > seen.timestamp) newest.set(row.currency, { rate: row.hourlyBorrowRate, timestamp: row.timestamp });
    }
    return [...newest].map(([asset, { rate }]) => ({ asset, rate, borrowable: null }));
  },
  "bybit-loan-info": (body) => {
    const { result } = bybitLoanInfo.parse(body);
    return [{ asset: result.coin, rate: result.interestRate, borrowable: result.loanAbleAmount }];
  },
  "gate-uni-estimate-rate": (body) => Object.entries(gateEstimate.parse(body)).map(([asset, rate]) => ({ asset, rate, borrowable: null })),
  // `limit` ("Loan limit") states no unit, so no borrowable amount is claimed from it.
  "bitget-margin-loans": (body, asset) => {
    if (!asset) throw new AppError("INTERNAL_ERROR", "bitget-margin-loans: the answer does not name its coin; pass the one asked for");
    const { data } = bitgetMarginLoans.parse(body);
    return [{ asset, rate: consistentDaily(data.dailyInterest, data.annualInterest), borrowable: null }];
  },
};

/**
 * The borrow rates in `endpoint`'s answer, each in the period the venue states, with the amount
 * the venue lends where it says. `asset`: the coin asked for, for an answer that does not repeat it
 * (Bitget's). Throws `VENUE_UNAVAILABLE` on an answer of another shape.
 */
export function readBorrowRates(endpoint: BorrowEndpoint, body: unknown, observedAt: string, asset?: string): BorrowRate[] {
  const { path, period } = BORROW_ENDPOINTS[endpoint];
  try {
    return READERS[endpoint](body, asset).map((row) => ({ asset: row.asset.toUpperCase(), rate: row.rate, period, borrowable: row.borrowable, source: path, observedAt }));
  } catch (error) {
    if (error instanceof z.ZodError) throw new AppError("VENUE_UNAVAILABLE", `${endpoint}: unexpected answer (${error.issues[0]?.message ?? "shape"})`);
    throw error;
  }
}
