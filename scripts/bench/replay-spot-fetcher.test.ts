import { describe, expect, it } from "vitest";
import { createSpotFetcher } from "./replay-spot-fetcher";

describe("the benchmark's spot venues", () => {
  it("answer every recorded BTC market once more per synthetic asset, with its borrow rate where the venue's recording has one", async () => {
    const results = await createSpotFetcher({ assets: 30 })({ timeoutMs: 5_000 });
    const legs = Object.fromEntries(results.map((r) => [r.venue, r.status === "ok" ? r.legs : r.error]));
    for (const venue of ["okx", "bybit", "kucoin"] as const) {
      const venueLegs = legs[venue];
      if (!Array.isArray(venueLegs)) throw new Error(`${venue}: ${String(venueLegs)}`);
      expect(venueLegs.map((leg) => leg.base)).toEqual(expect.arrayContaining(["BTC", "A0000", "A0029"]));
      expect(venueLegs).toHaveLength(31);
    }
    // OKX's public quota lists BTC; widened, every synthetic asset has its own rate row.
    const okx = legs.okx;
    if (!Array.isArray(okx)) throw new Error(`okx: ${String(okx)}`);
    expect(okx.filter((leg) => leg.borrow !== null).map((leg) => leg.base)).toEqual(expect.arrayContaining(["BTC", "A0000", "A0029"]));
  });
});
