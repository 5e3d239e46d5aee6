import { describe, expect, it } from "vitest";
import type { HistoryMarket } from "../history-types";
import { grvtHistory } from "./grvt";
import { fixedIo } from "@/tests/fixtures/history/history-servers";
import { historyJson } from "@/tests/fixtures/history/read-history-fixture";

const BTC: HistoryMarket = { exchange: "grvt", market: "BTC/USDT:USDT", venueMarketId: "BTC_USDT_Perp", base: "BTC" };
const DOC = "grvt/funding_BTC_USDT_Perp_docs-example.json";

describe("grvtHistory", () => {
  it("sends the venue's next cursor back as `cursor`", async () => {
    const io = fixedIo(historyJson(DOC));
    await grvtHistory.readPage(io, BTC, { since: 1697760000000, until: 1697788800000 }, "Qw0918=");
    expect(io.requests[0]).toContain('"agg_type":"FUNDING_INTERVAL","cursor":"Qw0918="}');
  });

  it("stops once a page reaches the start of the range", async () => {
    const page = await grvtHistory.readPage(fixedIo(historyJson(DOC)), BTC, { since: 1697788800000, until: 1697800000000 }, null);
    expect(page.next).toBeNull();
  });

  it("reads an interval of 0 as unstated and keeps 19-digit nanoseconds exact", async () => {
    const answer = {
      result: [{ instrument: "BTC_USDT_Perp", funding_rate: "-0.0034", funding_time: "1760494260000000000", funding_interval_hours: "0" }],
      next: "",
    };
    const page = await grvtHistory.readPage(fixedIo(answer), BTC, { since: 1760400000000, until: 1760500000000 }, null);
    expect(page).toEqual({ settlements: [{ time: 1760494260000, rate: -0.000034, intervalHours: null }], next: null });
  });

  it("fails loudly on a time that is not nanoseconds", async () => {
    const answer = { result: [{ instrument: "BTC_USDT_Perp", funding_rate: "0.01", funding_time: "2025-10-15T02:11:00Z" }] };
    await expect(grvtHistory.readPage(fixedIo(answer), BTC, { since: 0, until: 1 }, null)).rejects.toThrow(/funding_time/);
  });
});
