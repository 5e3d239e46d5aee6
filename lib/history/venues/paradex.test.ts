import { describe, expect, it } from "vitest";
import type { HistoryMarket } from "../history-types";
import { aggregateObservations } from "../aggregate-observations";
import { paradexHistory } from "./paradex";
import { walkHistory } from "./walk-history";
import { paradexRows, paradexServer } from "@/tests/fixtures/history/paradex-server";

const BTC: HistoryMarket = { exchange: "paradex", market: "BTC/USDC:USDC", venueMarketId: "BTC-USD-PERP", base: "BTC" };
const HOUR = 3_600_000;
const B0 = Date.UTC(2026, 7, 27);
const B4 = B0 + 32 * HOUR;

function observations() {
  return paradexRows().map((row) => ({
    time: row.created_at,
    fundingIndex: Number(row.funding_index),
    premium: Number(row.funding_premium),
    rate: Number(row.funding_rate),
    periodHours: Number(row.funding_period_hours),
  }));
}

describe("paradexHistory on recorded BTC observations", () => {
  it("walks to the same settlements as aggregating every recorded row, one per whole period", async () => {
    const io = paradexServer(paradexRows());
    const walk = await walkHistory(io, paradexHistory, BTC, { since: B0 - 48 * HOUR, until: B4 + 30_000 });
    expect(walk.settlements).toEqual(aggregateObservations(observations()));
    expect(walk.settlements).toHaveLength(4);
    // The windows before the first recording answer nothing: those periods are gaps, not zeros.
    expect(walk.settlements.every((settlement) => settlement.rate > 0.00008)).toBe(true);
  });

  it("settles the period ending at the cursor when a page resumes from it", async () => {
    const io = paradexServer(paradexRows());
    const page = await paradexHistory.readPage(io, BTC, { since: B0 + 1, until: B4 + 30_000 }, String(B0 + 16 * HOUR));
    expect(io.requests[0]).toBe(`GET https://api.prod.paradex.trade/v1/funding/data?market=BTC-USD-PERP&end_at=${B0 + 16 * HOUR + 30_000}&page_size=1`);
    expect(page.settlements.map((settlement) => settlement.time)).toEqual([B0 + 8 * HOUR, B0 + 16 * HOUR]);
    expect(page.next).toBeNull();
  });

  it("follows the venue's next cursor through a window answered in short pages", async () => {
    const io = paradexServer(paradexRows(), { maxPageSize: 2 });
    const page = await paradexHistory.readPage(io, BTC, { since: B0 + 1, until: B4 + 30_000 }, null);
    expect(page.settlements).toEqual(aggregateObservations(observations()));
    expect(io.requests.some((request) => request.endsWith("&page_size=100&cursor=2"))).toBe(true);
  });

  it("stops at a page of at most 24 periods and hands the oldest boundary on", async () => {
    const io = paradexServer(paradexRows());
    const page = await paradexHistory.readPage(io, BTC, { since: 0, until: B4 + 30_000 }, null);
    // A probe and 25 boundary windows: 24 periods, of which the recording pins four.
    expect(io.requests).toHaveLength(26);
    expect(page.settlements).toHaveLength(4);
    expect(page.next).toBe(String(B4 - 24 * 8 * HOUR));
  });

  it("ends the walk where the venue has no row at or before the range", async () => {
    const io = paradexServer(paradexRows());
    const page = await paradexHistory.readPage(io, BTC, { since: B0 - 48 * HOUR, until: B0 - 1 }, null);
    expect(page).toEqual({ settlements: [], next: null });
    expect(io.requests).toHaveLength(1);
  });

  it("never reads another market's rows", async () => {
    const io = paradexServer(paradexRows());
    const eth: HistoryMarket = { exchange: "paradex", market: "ETH/USDC:USDC", venueMarketId: "ETH-USD-PERP", base: "ETH" };
    const page = await paradexHistory.readPage(io, eth, { since: B0 + 1, until: B4 + 30_000 }, null);
    expect(page).toEqual({ settlements: [], next: null });
  });
});
