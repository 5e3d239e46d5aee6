import { describe, expect, it } from "vitest";
import { accrue, totals, type AccrualInput } from "./accrual";

const HOUR = 3_600_000;
const OPENED = Date.UTC(2026, 10, 20, 0, 0);

function position(overrides: Partial<AccrualInput> = {}): AccrualInput {
  return {
    notionalUsd: 10_000,
    openedAt: OPENED,
    asOf: OPENED + 24 * HOUR,
    // Binance 8h at 0.01 %, Hyperliquid 1h at 0.005 %; one settlement each at the opening instant, not counted.
    long: { exchange: "binance", market: "BTC/USDT:USDT", takerFee: 0.0004, settlements: [0, 8, 16, 24, 32].map((h) => ({ time: OPENED + h * HOUR, rate: 0.0001 })) },
    short: {
      exchange: "hyperliquid",
      market: "BTC/USDC:USDC",
      takerFee: null,
      settlements: Array.from({ length: 30 }, (_, h) => ({ time: OPENED + h * HOUR, rate: 0.00005 })),
    },
    ...overrides,
  };
}

describe("accrue", () => {
  it("counts settlements in (openedAt, asOf] with mixed 1h and 8h legs", () => {
    const a = accrue(position());
    // Long: 3 settlements (8, 16, 24 h) × −0.0001 × 10 000 = −3. Short: 24 (1..24 h) × 0.00005 × 10 000 = 12.
    expect(a.long).toEqual({ exchange: "binance", market: "BTC/USDT:USDT", taker_fee: 0.0004, settlements: 3, funding_income_usd: -3 });
    expect(a.short).toMatchObject({ taker_fee: 0.0006, settlements: 24, funding_income_usd: 12 });
    // Fees: 2 × 10 000 × (0.0004 + 0.0006 default) = 20; net 9 − 20 = −11.
    expect(a).toMatchObject({ as_of: "2026-11-21T00:00:00.000Z", funding_income_usd: 9, fees_usd: 20, net_pnl_usd: -11 });
  });

  it("pays the position when the long leg's funding is negative", () => {
    const a = accrue(
      position({
        long: { exchange: "okx", market: "ETH/USDT:USDT", takerFee: 0.0005, settlements: [{ time: OPENED + 8 * HOUR, rate: -0.0003 }] },
        short: { exchange: "gate", market: "ETH/USDT:USDT", takerFee: 0.0005, settlements: [{ time: OPENED + 8 * HOUR, rate: -0.0001 }] },
      }),
    );
    // Long earns +3, short pays −1; fees 2 × 10 000 × 0.001 = 20.
    expect(a).toMatchObject({ funding_income_usd: 2, fees_usd: 20, net_pnl_usd: -18 });
    expect(a.long.funding_income_usd).toBe(3);
    expect(a.short.funding_income_usd).toBe(-1);
  });

  it("earns nothing before the first settlement, and stops at asOf", () => {
    expect(accrue(position({ asOf: OPENED + HOUR / 2 }))).toMatchObject({ funding_income_usd: 0, net_pnl_usd: -20 });
    expect(accrue(position({ asOf: OPENED + 8 * HOUR })).long.settlements).toBe(1);
  });
});

describe("totals", () => {
  it("splits open (unrealised) from closed (realised) positions", () => {
    const open = accrue(position());
    const closed = accrue(position({ notionalUsd: 5000, asOf: OPENED + 8 * HOUR }));
    // Closed: long −0.5 (1 × 0.0001 × 5000), short 8 × 0.00005 × 5000 = 2; fees 10; net −8.5.
    expect(closed).toMatchObject({ funding_income_usd: 1.5, fees_usd: 10, net_pnl_usd: -8.5 });
    expect(
      totals([
        { open: true, notionalUsd: 10_000, accrual: open },
        { open: false, notionalUsd: 5000, accrual: closed },
      ]),
    ).toEqual({
      positions: 2,
      open_positions: 1,
      open_notional_usd: 10_000,
      funding_income_usd: 10.5,
      fees_usd: 30,
      unrealised_pnl_usd: -11,
      realised_pnl_usd: -8.5,
      net_pnl_usd: -19.5,
    });
    expect(totals([])).toMatchObject({ positions: 0, net_pnl_usd: 0 });
  });
});
