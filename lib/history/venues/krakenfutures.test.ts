import { describe, expect, it } from "vitest";
import type { HistoryMarket } from "../history-types";
import { krakenfuturesHistory } from "./krakenfutures";
import { fixedIo } from "@/tests/fixtures/history/history-servers";

const XBT: HistoryMarket = { exchange: "krakenfutures", market: "BTC/USD:USD", venueMarketId: "PF_XBTUSD", base: "BTC" };

/** Kraken's documented unsuccessful answer (support article 360061979852, "Sample Return if Unsuccessful"). */
const UNKNOWN_SYMBOL = {
  status: "BAD_REQUEST",
  result: "error",
  errors: [{ code: 11, message: "Argument invalid: symbol" }],
  serverTime: "2021-05-31T18:30:38.090Z",
};

describe("krakenfuturesHistory", () => {
  it("names Kraken's invalid-symbol answer as the market gone, and nothing else", () => {
    expect(krakenfuturesHistory.marketGone?.(UNKNOWN_SYMBOL, 400)).toBe("Kraken error 11: Argument invalid: symbol");
    expect(krakenfuturesHistory.marketGone?.({ ...UNKNOWN_SYMBOL, errors: [{ code: 12, message: "other" }] }, 400)).toBeNull();
    expect(krakenfuturesHistory.marketGone?.({ result: "success", rates: [] }, 200)).toBeNull();
  });

  it("fails on an error answer instead of reading it as an empty history", async () => {
    await expect(krakenfuturesHistory.readPage(fixedIo(UNKNOWN_SYMBOL), XBT, { since: 0, until: 1 }, null)).rejects.toThrow(/result "error"/);
  });
});
