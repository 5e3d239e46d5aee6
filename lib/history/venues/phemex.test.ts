import { describe, expect, it } from "vitest";
import type { HistoryMarket } from "../history-types";
import { phemexFundingSymbol, phemexHistory } from "./phemex";
import { fixedIo } from "@/tests/fixtures/history/history-servers";
import { historyJson } from "@/tests/fixtures/history/read-history-fixture";

const LINEAR: HistoryMarket = { exchange: "phemex", market: "BTC/USDT:USDT", venueMarketId: "BTCUSDT", base: "BTC" };
const INVERSE: HistoryMarket = { exchange: "phemex", market: "BTC/USD:BTC", venueMarketId: "BTCUSD", base: "BTC" };

describe("phemex funding history", () => {
  it("files a USDT perpetual under .<id>FR8H and a coin-margined one under .<base>FR8H", () => {
    expect(phemexFundingSymbol(LINEAR)).toBe(".BTCUSDTFR8H");
    expect(phemexFundingSymbol(INVERSE)).toBe(".BTCFR8H");
  });

  it("refuses an answer that holds another market's rows instead of storing them under this one", async () => {
    const io = fixedIo(historyJson("phemex/funding-rate-history_BTCFR8H_docs-example.json"));
    await expect(phemexHistory.readPage(io, LINEAR, { since: 1680739200000, until: 1680868800000 }, null)).rejects.toThrow(
      /\.BTCFR8H in the answer for \.BTCUSDTFR8H/,
    );
  });
});
