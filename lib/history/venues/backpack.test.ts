import { afterEach, describe, expect, it } from "vitest";
import type { HistoryMarket } from "../history-types";
import { backpackHistory, backpackIntervalEnd } from "./backpack";
import { fixedIo } from "@/tests/fixtures/history/history-servers";
import { historyJson } from "@/tests/fixtures/history/read-history-fixture";

const BTC: HistoryMarket = { exchange: "backpack", market: "BTC/USDC:USDC", venueMarketId: "BTC_USDC_PERP", base: "BTC" };
const RECORDED = "backpack/fundingRates_BTC_USDC_PERP_2026-09-23T03-23_pasted2rows.json";
const zone = process.env.TZ;

afterEach(() => {
  if (zone === undefined) delete process.env.TZ;
  else process.env.TZ = zone;
});

describe("backpackIntervalEnd", () => {
  it("reads Backpack's zone-less time as UTC on a machine that is not", () => {
    process.env.TZ = "Asia/Tokyo";
    expect(Date.parse("2026-09-23T03:00:00")).not.toBe(Date.UTC(2026, 8, 23, 3));
    expect(backpackIntervalEnd("2026-09-23T03:00:00")).toBe(Date.UTC(2026, 8, 23, 3));
  });

  it("keeps a zone the text states and refuses what is not a time", () => {
    expect(backpackIntervalEnd("2026-09-23T03:00:00+02:00")).toBe(Date.UTC(2026, 8, 23, 1));
    expect(() => backpackIntervalEnd("")).toThrow(/intervalEndTimestamp/);
    expect(() => backpackIntervalEnd(1790132400000)).toThrow(/intervalEndTimestamp/);
  });
});

describe("backpackHistory", () => {
  it("keeps the running interval once the range reaches past its end", async () => {
    const page = await backpackHistory.readPage(fixedIo(historyJson(RECORDED)), BTC, { since: 0, until: Date.UTC(2026, 8, 23, 4) }, null);
    expect(page.settlements.map((settlement) => settlement.time)).toEqual([Date.UTC(2026, 8, 23, 4), Date.UTC(2026, 8, 23, 3)]);
  });

  it("hands a walk reaching back the first page whole, only the running interval dropped", async () => {
    const rows = Array.from({ length: 1000 }, (_, i) => ({
      fundingRate: "0.0000125",
      intervalEndTimestamp: new Date(Date.UTC(2026, 8, 23, 4) - i * 3_600_000).toISOString().slice(0, 19),
      symbol: "BTC_USDC_PERP",
    }));
    const page = await backpackHistory.readPage(fixedIo(rows), BTC, { since: 0, until: Date.UTC(2026, 7, 1) }, null);
    expect(page.settlements).toHaveLength(999);
    expect(page.settlements[0]?.time).toBe(Date.UTC(2026, 8, 23, 3));
    expect(page.next).toBe("1000");
  });

  it("pages on by offset while a full page stays inside the range", async () => {
    const full = Array.from({ length: 1000 }, (_, i) => ({
      fundingRate: "0.0000125",
      intervalEndTimestamp: new Date(Date.UTC(2026, 8, 23, 3) - i * 3_600_000).toISOString().slice(0, 19),
      symbol: "BTC_USDC_PERP",
    }));
    const io = fixedIo(full);
    const page = await backpackHistory.readPage(io, BTC, { since: 0, until: Date.UTC(2026, 8, 23, 3) }, "1000");
    expect(io.requests).toEqual(["GET https://api.backpack.exchange/api/v1/fundingRates?symbol=BTC_USDC_PERP&limit=1000&offset=1000"]);
    expect(page.next).toBe("2000");
  });
});
