import { describe, expect, it } from "vitest";
import type { HistoryMarket } from "../history-types";
import { pacificaHistory } from "./pacifica";
import { fixedIo } from "@/tests/fixtures/history/history-servers";

const BTC: HistoryMarket = { exchange: "pacifica", market: "BTC/USDC:USDC", venueMarketId: "BTC", base: "BTC" };
const HOUR = 3_600_000;
const NINE_PM = Date.UTC(2026, 8, 12, 21);

/** A full page of hourly rows newest first from `newest`, in the docs' envelope. */
function page(newest: number, more: boolean) {
  const data = Array.from({ length: 4000 }, (_, i) => ({ funding_rate: "0.0000125", next_funding_rate: "0.00001", created_at: newest - i * HOUR + 398 }));
  return { success: true, data, next_cursor: "c2", has_more: more };
}

describe("pacificaHistory", () => {
  it("sends the cursor back and pages on while the page stays newer than since", async () => {
    const io = fixedIo(page(NINE_PM, true));
    const read = await pacificaHistory.readPage(io, BTC, { since: NINE_PM - 5000 * HOUR, until: NINE_PM }, "c1");
    expect(io.requests).toEqual(["GET https://api.pacifica.fi/api/v1/funding_rate/history?symbol=BTC&limit=4000&cursor=c1"]);
    expect(read.next).toBe("c2");
  });

  it("stops once a page reaches since, or when the venue has no more", async () => {
    const reached = await pacificaHistory.readPage(fixedIo(page(NINE_PM, true)), BTC, { since: NINE_PM - 100 * HOUR, until: NINE_PM }, null);
    expect(reached.next).toBeNull();
    const last = await pacificaHistory.readPage(fixedIo(page(NINE_PM, false)), BTC, { since: 0, until: NINE_PM }, null);
    expect(last.next).toBeNull();
  });

  it("fails on an unsuccessful answer instead of reading it as an empty history", async () => {
    await expect(pacificaHistory.readPage(fixedIo({ success: false, data: null, error: "bad symbol", code: 400 }), BTC, { since: 0, until: 1 }, null)).rejects.toThrow(
      /success false: "bad symbol"/,
    );
  });
});
