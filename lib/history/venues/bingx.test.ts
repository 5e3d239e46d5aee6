import { describe, expect, it } from "vitest";
import { bingxHistory } from "./bingx";
import { historyJson } from "@/tests/fixtures/history/read-history-fixture";

describe("BingX's history reader", () => {
  it("calls a market gone only on BingX's unknown-pair code, never on an answer or another refusal", () => {
    const gone = bingxHistory.marketGone!;
    expect(gone({ code: 109425, msg: "Trading pair does not exist", data: {} }, 200)).toBe("BingX code 109425: Trading pair does not exist");
    expect(gone({ code: "109425" }, 200)).toMatch(/^BingX code 109425/);
    expect(gone(historyJson("bingx/fundingRate_QNT-USDT_docs-example.json"), 200)).toBeNull();
    expect(gone({ code: 100410, msg: "rate limited" }, 200)).toBeNull();
    expect(gone("<html>bad gateway</html>", 502)).toBeNull();
  });
});
