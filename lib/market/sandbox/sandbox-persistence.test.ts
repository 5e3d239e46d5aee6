import { describe, expect, it } from "vitest";
import { settledHourlyRates } from "../persistence/settled-hours";
import { sandboxFundingHistory, sandboxHistoryKey } from "./sandbox-funding-history";
import { sandboxSnapshot } from "./sandbox-snapshot";
import { generateSandboxFunding, generateSandboxMarket } from "./generate-sandbox-market";
import { SANDBOX_EDGE_CASES } from "./edge-cases";

const HOUR = 3_600_000;
const AT = new Date("2026-11-21T16:34:00Z");
const THROUGH = Date.UTC(2026, 10, 21, 16);
const { items: all } = sandboxSnapshot(AT);
/** The stale venue's last snapshots are listed (flagged), but its funding history stops: its pairs' persistence is unknown. */
const onStaleVenue = (o: (typeof all)[number]) => o.long.exchange === SANDBOX_EDGE_CASES.staleVenue || o.short.exchange === SANDBOX_EDGE_CASES.staleVenue;
const items = all.filter((o) => !onStaleVenue(o));
const byId = new Map(items.map((o) => [o.id, o]));

describe("the sandbox's persistence (what test keys see)", () => {
  it("gives every opportunity figures as of the hour's start, from a full 30 days of hourly history", () => {
    for (const o of items) {
      expect(o.persistence.as_of, o.id).toBe("2026-11-21T16:00:00.000Z");
      for (const field of ["apr_median_7d", "apr_median_30d", "paid_share_7d", "apr_stddev_7d"] as const) {
        expect(o.persistence[field], `${o.id} ${field}`).not.toBeNull();
      }
    }
    // Some spreads turned positive within the window, some are not positive now: both kinds are there to test against.
    for (const o of all.filter(onStaleVenue)) expect(o.persistence.paid_share_7d, o.id).toBeNull();
    const since = items.map((o) => o.persistence.positive_since);
    expect(since.filter((s) => s === null).length).toBeGreaterThan(10);
    expect(since.filter((s) => s !== null && s > "2026-10-22T16:00:00.000Z").length).toBeGreaterThan(10);
  });

  it("is the same at every minute of the hour, on every machine", () => {
    const later = sandboxSnapshot(new Date("2026-11-21T16:59:30Z")).items;
    let compared = 0;
    for (const o of later) {
      const earlier = byId.get(o.id);
      if (!earlier) continue; // a pair whose long and short legs swapped meanwhile
      expect(o.persistence, o.id).toEqual(earlier.persistence);
      compared++;
    }
    expect(compared).toBeGreaterThan(items.length * 0.9);
  });

  it("has the negative-funding fixture's pairs paid every hour and positive throughout the 30 days", () => {
    for (const long of ["binance", "okx", "hyperliquid"]) {
      const o = byId.get(`SBXNEG-bybit-${long}`);
      expect(o?.persistence, long).toMatchObject({ positive_since: "2026-10-22T16:00:00.000Z", paid_share_7d: 1 });
      expect(o?.persistence.apr_median_7d, long).toBeGreaterThan(40);
    }
  });

  it("counts paid hours from the same settlements GET /v1/funding-rates serves test keys, 1h and 8h legs alike", () => {
    const history = sandboxFundingHistory(AT);
    const paid = (exchange: string, market: string, symbol: string) =>
      settledHourlyRates(
        (history.get(sandboxHistoryKey(exchange, symbol)) ?? [])
          .filter((s) => s.market === market)
          .map((s) => ({ time: Date.parse(s.time), rate: s.funding_rate, intervalHours: s.funding_interval_hours })),
        THROUGH - 168 * HOUR,
        168,
      );
    const mixed = items.filter((o) => o.long.funding_interval_hours !== o.short.funding_interval_hours).slice(0, 20);
    expect(mixed.length).toBe(20);
    for (const o of mixed) {
      const [long, short] = [paid(o.long.exchange, o.long.market, o.symbol), paid(o.short.exchange, o.short.market, o.symbol)];
      let settled = 0;
      let paidHours = 0;
      for (let i = 0; i < 168; i++) {
        if (Number.isNaN(long[i]!) || Number.isNaN(short[i]!)) continue;
        settled++;
        if (short[i]! > long[i]!) paidHours++;
      }
      expect(o.persistence.paid_share_7d, o.id).toBeCloseTo(paidHours / settled, 6);
    }
  });
});

describe("generateSandboxFunding", () => {
  it("is the funding of generateSandboxMarket's snapshots on the venues that are not stale, in order", () => {
    for (const at of [AT, new Date("2026-11-22T00:59:00Z"), new Date("2026-11-23T07:00:00Z")]) {
      const fresh = generateSandboxMarket(at).snapshots.filter((s) => s.exchange !== SANDBOX_EDGE_CASES.staleVenue);
      expect(generateSandboxFunding(at)).toEqual(
        fresh.map(({ exchange, market, base, fundingRate, fundingIntervalHours, nextFundingAt }) => ({
          exchange, market, base, fundingRate, fundingIntervalHours, nextFundingAt,
        })),
      );
    }
  });
});
