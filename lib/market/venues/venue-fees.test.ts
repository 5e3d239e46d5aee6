import { describe, expect, it } from "vitest";
import { VENUE_IDS } from "../model/types";
import { VENUE_FEE_SCHEDULES, venueFee, venueFeeSchedule, venueFeeSchema, venueTakerFee } from "./venue-fees";

describe("the venue fee table", () => {
  it("has a row for every venue, each published one with maker, taker, an https source and a date", () => {
    expect(Object.keys(VENUE_FEE_SCHEDULES).sort()).toEqual([...VENUE_IDS].sort());
    for (const id of VENUE_IDS) {
      const schedule = VENUE_FEE_SCHEDULES[id];
      if (schedule === null) continue;
      expect(schedule.taker, id).toBeGreaterThanOrEqual(0);
      expect(schedule.taker, id).toBeLessThan(0.002);
      expect(schedule.maker, id).toBeLessThanOrEqual(schedule.taker);
      expect(schedule.source, id).toMatch(/^https:\/\//);
      expect(schedule.asOf, id).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      expect(venueFeeSchema.parse(venueFee(id)), id).toMatchObject({ fee_source: "schedule", taker: schedule.taker });
    }
  });

  it("holds the published base tiers the issue found mis-stated by ccxt", () => {
    expect(venueFeeSchedule("extended")).toMatchObject({ maker: 0, taker: 0.00025 });
    expect(venueFeeSchedule("coinex")).toMatchObject({ maker: 0.0003, taker: 0.0005 });
    expect(venueFeeSchedule("phemex")).toMatchObject({ maker: 0.0001, taker: 0.0006 });
    expect(venueFeeSchedule("binance")).toMatchObject({ maker: 0.0002, taker: 0.0005, asOf: "2026-10-12" });
  });

  it("uses the schedule over what the connector read, and the connector's value only where none is published", () => {
    expect(venueTakerFee("extended", 0.002)).toBe(0.00025);
    expect(venueTakerFee("gate", 0.00075)).toBe(0.00075);
    expect(venueTakerFee("gate", null)).toBeNull();
    expect(venueTakerFee("nosuchvenue", 0.001)).toBe(0.001);
    expect(venueFee("gate")).toEqual({ maker: null, taker: null, source: null, as_of: null, fee_source: "ccxt_fallback" });
  });
});
