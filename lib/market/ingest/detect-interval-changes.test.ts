import { describe, expect, it } from "vitest";
import { makeSnapshot } from "@/tests/support/market/make-snapshot";
import type { MarketSnapshot } from "../model/types";
import type { PreviousObservation } from "./derive-settlements";
import { detectIntervalChanges } from "./detect-interval-changes";

const HOUR = 3_600_000;
const EIGHT = Date.UTC(2026, 10, 20, 8);
const previous = (overrides: Partial<PreviousObservation> = {}): PreviousObservation => ({
  exchange: "binance",
  market: "BTC/USDT:USDT",
  base: "BTC",
  fundingRate: 0.0002,
  fundingIntervalHours: 8,
  nextFundingAt: EIGHT + 8 * HOUR,
  observedAt: EIGHT - 20 * 60_000,
  ...overrides,
});
const now = (overrides: Partial<MarketSnapshot> = {}) =>
  makeSnapshot({
    exchange: "binance",
    market: "BTC/USDT:USDT",
    base: "BTC",
    fundingIntervalHours: 1,
    fundingIntervalSource: "venue",
    nextFundingAt: EIGHT + HOUR,
    observedAt: EIGHT + 38 * 60_000,
    ...overrides,
  });

describe("detectIntervalChanges", () => {
  it("dates a change at the start of the interval now running, with the new interval's source", () => {
    expect(detectIntervalChanges([previous()], [now()])).toEqual([
      {
        exchange: "binance",
        market: "BTC/USDT:USDT",
        base: "BTC",
        effectiveAt: new Date(EIGHT),
        fromHours: 8,
        toHours: 1,
        source: "venue",
        detectedAt: new Date(EIGHT + 38 * 60_000),
      },
    ]);
  });

  it("never dates a change before the observation that still showed the old interval, nor after the one that showed the new", () => {
    // Seen at 08:30 still 8h; at 08:38 hourly with the next settlement at 09:00: began after 08:30, not at 08:00.
    const [late] = detectIntervalChanges([previous({ observedAt: EIGHT + 30 * 60_000 })], [now()]);
    expect(late?.effectiveAt).toEqual(new Date(EIGHT + 30 * 60_000 + 1));
    // A next settlement further than one new interval away would put the start in the future: the observation bounds it.
    const [ahead] = detectIntervalChanges([previous()], [now({ nextFundingAt: EIGHT + 4 * HOUR })]);
    expect(ahead?.effectiveAt).toEqual(new Date(EIGHT + 38 * 60_000));
    const [undated] = detectIntervalChanges([previous()], [now({ nextFundingAt: null })]);
    expect(undated?.effectiveAt).toEqual(new Date(EIGHT + 38 * 60_000));
  });

  it("reports derived intervals with their source, e.g. the settlement schedule", () => {
    const [row] = detectIntervalChanges([previous({ exchange: "okx" })], [now({ exchange: "okx", fundingIntervalSource: "schedule", fundingIntervalHours: 4, nextFundingAt: EIGHT + 4 * HOUR })]);
    expect(row).toMatchObject({ exchange: "okx", fromHours: 8, toHours: 4, source: "schedule", effectiveAt: new Date(EIGHT) });
  });

  it("is silent for an unchanged interval, one learnt or lost, and a market not seen before", () => {
    expect(detectIntervalChanges([previous()], [now({ fundingIntervalHours: 8, nextFundingAt: EIGHT + 8 * HOUR })])).toEqual([]);
    expect(detectIntervalChanges([previous({ fundingIntervalHours: null })], [now()])).toEqual([]);
    expect(detectIntervalChanges([previous()], [now({ fundingIntervalHours: null, fundingIntervalSource: null })])).toEqual([]);
    expect(detectIntervalChanges([previous({ market: "ETH/USDT:USDT" })], [now()])).toEqual([]);
    expect(detectIntervalChanges([previous({ exchange: "bybit" })], [now()])).toEqual([]);
  });
});
