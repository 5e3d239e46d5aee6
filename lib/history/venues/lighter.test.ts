import { describe, expect, it } from "vitest";
import { AppError } from "@/lib/errors";
import type { HistoryMarket } from "../history-types";
import { lighterHistory } from "./lighter";
import { walkHistory } from "./walk-history";
import { fixedIo, lighterServer } from "@/tests/fixtures/history/history-servers";
import { historyJson } from "@/tests/fixtures/history/read-history-fixture";

const FIXTURE = "lighter/fundings_ETH_resolution-1h_nautilus-schema-fixture.json";
const ETH: HistoryMarket = { exchange: "lighter", market: "ETH/USDC:USDC", venueMarketId: "0", base: "ETH" };
const DAY = { since: Date.UTC(2026, 4, 13), until: Date.UTC(2026, 4, 14) };
const HOUR = 3_600_000;

function page(fundings: unknown[]): unknown {
  return { code: 200, resolution: "1h", fundings };
}

describe("Lighter's history reader", () => {
  it("signs each rate by the side that paid and drops a row whose side it cannot read", async () => {
    const answer = page([
      { timestamp: 1778702400, value: "0.02707872", rate: "0.0012", direction: "long" },
      { timestamp: 1778706000, value: "0.00452778", rate: "0.0002", direction: "short" },
      // No sign to read on a zero rate, whatever the side.
      { timestamp: 1778709600, value: "0.00000000", rate: "0.0000", direction: "short" },
      // A non-zero rate without a side it knows: dropped, never stored with a guessed sign.
      { timestamp: 1778713200, value: "0.1", rate: "0.0006", direction: "???" },
    ]);
    const read = await lighterHistory.readPage(fixedIo(answer), ETH, DAY, null);
    expect(read.settlements).toEqual([
      { time: Date.UTC(2026, 4, 13, 20), rate: 0.000012, intervalHours: 1 },
      { time: Date.UTC(2026, 4, 13, 21), rate: -0.000002, intervalHours: 1 },
      { time: Date.UTC(2026, 4, 13, 22), rate: 0, intervalHours: 1 },
    ]);
    expect(Object.is(read.settlements[2]!.rate, -0)).toBe(false);
  });

  it("fails loudly on a refusal inside a 200, a signed magnitude or another resolution", async () => {
    const refusals: [unknown, RegExp][] = [
      [{ code: 20001, message: "invalid param " }, /code 20001: invalid param/],
      [{ code: 23000, message: "Too Many Requests!" }, /code 23000: Too Many Requests!/],
      [{ fundings: [] }, /no code/],
      [page([{ timestamp: 1778702400, rate: "-0.0012", direction: "short" }]), /signed/],
      [{ code: 200, resolution: "1d", fundings: [] }, /resolution "1d"/],
      [page([{ timestamp: 1778702400, rate: "n/a", direction: "long" }]), /rate is not a number/],
    ];
    for (const [answer, message] of refusals) {
      const reading = lighterHistory.readPage(fixedIo(answer), ETH, DAY, null);
      await expect(reading).rejects.toBeInstanceOf(AppError);
      await expect(reading).rejects.toThrow(message);
    }
  });

  it("asks nothing for a market id that is not Lighter's integer market_id", async () => {
    const io = fixedIo(page([]));
    await expect(lighterHistory.readPage(io, { ...ETH, venueMarketId: "ETH" }, DAY, null)).rejects.toThrow(/not Lighter's integer market_id/);
    expect(io.requests).toEqual([]);
  });

  it("keeps end_timestamp above start_timestamp in a window shorter than a second", async () => {
    const io = fixedIo(page([]));
    await lighterHistory.readPage(io, ETH, { since: DAY.until - 400, until: DAY.until - 100 }, null);
    expect(io.requests).toEqual([
      "GET https://mainnet.zklighter.elliot.ai/api/v1/fundings?market_id=0&resolution=1h&start_timestamp=1778716798&end_timestamp=1778716799&count_back=1",
    ]);
  });

  it("walks back window by window over the recorded page split at a window's edge, and stops at the empty one before it", async () => {
    const recorded = historyJson<{ fundings: { timestamp: number }[] }>(FIXTURE);
    const io = lighterServer(recorded);
    // The first window starts half an hour after the older row: each window holds one of the two.
    const until = Date.UTC(2026, 4, 13, 20, 30) + 720 * HOUR - 1;
    const walk = await walkHistory(io, lighterHistory, ETH, { since: Date.UTC(2026, 0, 1), until });
    expect(walk.settlements).toEqual([
      { time: Date.UTC(2026, 4, 13, 20), rate: 0.000012, intervalHours: 1 },
      { time: Date.UTC(2026, 4, 13, 21), rate: -0.000002, intervalHours: 1 },
    ]);
    // The third window lies before the market's first row: the venue answers it empty and the walk ends.
    expect(walk.pages).toBe(3);
    const ends = io.requests.map((request) => Number(new URL(request.slice(4)).searchParams.get("end_timestamp")));
    const starts = io.requests.map((request) => Number(new URL(request.slice(4)).searchParams.get("start_timestamp")));
    expect(ends[1]).toBe(starts[0]!);
    expect(ends[2]).toBe(starts[1]!);
    expect(starts[0]).toBeGreaterThan(1778702400);
    expect(starts[0]).toBeLessThan(1778706000);
  });

  it("keeps only the range when the venue tops a short window up past its start (count_back)", async () => {
    const recorded = historyJson<{ fundings: { timestamp: number }[] }>(FIXTURE);
    const io = lighterServer(recorded);
    const walk = await walkHistory(io, lighterHistory, ETH, { since: Date.UTC(2026, 4, 13, 20, 30), until: Date.UTC(2026, 4, 13, 21, 30) });
    expect(io.requests).toEqual([
      "GET https://mainnet.zklighter.elliot.ai/api/v1/fundings?market_id=0&resolution=1h&start_timestamp=1778704199&end_timestamp=1778707800&count_back=2",
    ]);
    expect(walk.settlements.map((settlement) => settlement.time)).toEqual([Date.UTC(2026, 4, 13, 21)]);
  });
});
