import { describe, expect, it } from "vitest";
import { legFieldAges } from "./leg-field-ages";
import type { ServedLeg } from "./types";

const leg: ServedLeg = {
  exchange: "bybit",
  market: "BTC/USDT:USDT",
  funding_rate: 0.0001,
  funding_interval_hours: 8,
  funding_interval_source: "venue",
  funding_rate_per_hour: 0.0000125,
  predicted_funding_rate: null,
  last_settled_rate: 0.00009,
  last_settled_at: "2026-11-20T08:00:00.000Z",
  rate_cap: 0.0075,
  rate_floor: -0.0075,
  at_cap: false,
  next_funding_at: "2026-11-20T16:00:00.000Z",
  mark_price: 97_000,
  open_interest_usd: 1e9,
  volume_24h_usd: 5e9,
  interval_changed_at: "2026-11-18T00:00:00.000Z",
  observed_at: "2026-11-20T09:59:30.000Z",
  transport: "stream",
  age_seconds: 30,
  stale: false,
};
const AT = Date.parse("2026-11-20T10:00:00.000Z");

describe("legFieldAges", () => {
  it("dates the observation's fields by the leg's observed_at and its served age", () => {
    const ages = legFieldAges(leg, AT);
    for (const field of ["funding_rate", "mark_price", "open_interest_usd", "predicted_funding_rate", "next_funding_at"] as const) {
      expect(ages[field]).toEqual({ basis: "observed", at: "2026-11-20T09:59:30.000Z", age_seconds: 30 });
    }
  });

  it("dates the last settlement and the interval change by their own times", () => {
    const ages = legFieldAges(leg, AT);
    expect(ages.last_settled_rate).toEqual({ basis: "settled", at: "2026-11-20T08:00:00.000Z", age_seconds: 7_200 });
    expect(ages.interval_changed_at).toEqual({ basis: "changed", at: "2026-11-18T00:00:00.000Z", age_seconds: 2 * 86_400 + 36_000 });
  });

  it("gives no age to the listing's names, nor to times that are not known", () => {
    const ages = legFieldAges({ ...leg, observed_at: null, age_seconds: null, last_settled_at: null, interval_changed_at: null }, AT);
    expect(ages.exchange).toEqual({ basis: "listing", at: null, age_seconds: null });
    expect(ages.funding_rate.age_seconds).toBeNull();
    expect(ages.last_settled_rate).toEqual({ basis: "settled", at: null, age_seconds: null });
    expect(ages.interval_changed_at.age_seconds).toBeNull();
  });

  it("reads a time ahead of the moment as 0 s old", () => {
    expect(legFieldAges({ ...leg, last_settled_at: "2026-11-20T10:00:05.000Z" }, AT).last_settled_at.age_seconds).toBe(0);
  });
});
