import { describe, expect, it } from "vitest";
import { paradexStream } from "@/lib/market/venues/streams/paradex";
import { VENUE_SPECS } from "./freshness-streams";

const paradex = VENUE_SPECS.paradex!;

describe("bench:freshness paradex frames", () => {
  it("decode through the protocol to the market, mark and exactly the stamped rate, for the bench's rates", () => {
    const channel = paradex.channels[0]!;
    // The bench's changes: ±(2e-4 + seq × 1e-10) to 12 significant digits, and the startup check's rate.
    const rates = [0.000123456789, ...[1, 7, 999_999, 123_456].flatMap((seq) => [1, -1].map((sign) => sign * Number((2e-4 + seq * 1e-10).toPrecision(12))))];
    for (const rate of rates) {
      const row = { id: "A0001-USD-PERP", rate, mark: 1234.567891, next: 0 };
      const events = paradexStream.decode(channel.frame([row], 1_790_000_000_123), 0);
      expect(events).toStrictEqual([
        { kind: "updates", updates: [{ venueMarketId: "A0001-USD-PERP", fields: { fundingRate: rate, markPrice: 1234.567891, indexPrice: 1234.567891 }, venueTime: 1_790_000_000_123 }] },
      ]);
    }
  });
});
