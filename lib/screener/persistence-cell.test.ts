import { describe, expect, it } from "vitest";
import { UNKNOWN_PERSISTENCE } from "@/lib/market/model/types";
import { hasPersistenceFigures, persistenceCell } from "./persistence-cell";

describe("persistenceCell", () => {
  it("shows the paid share and the 7-day median, and every figure in the tooltip", () => {
    const cell = persistenceCell({
      as_of: "2026-11-24T12:00:00.000Z",
      positive_since: "2026-11-20T03:00:00.000Z",
      apr_median_7d: 12.3,
      apr_median_30d: 9.87,
      paid_share_7d: 0.857,
      apr_stddev_7d: 4.5,
    });
    expect(cell.text).toBe("paid 86% · med 12.30%");
    expect(cell.title.split("\n")).toEqual([
      "Settlements that paid the right way over 7 days: 85.7%",
      "Median APR: 7 days 12.30%, 30 days 9.87%",
      "Deviation of the 7-day APR: 4.50%",
      "Positive since: 2026-11-20 03:00 UTC",
      "As of 2026-11-24 12:00 UTC",
    ]);
  });

  it("says so when nothing is known yet, and words a spread not positive now", () => {
    expect(persistenceCell(UNKNOWN_PERSISTENCE)).toEqual({ text: "—", title: expect.stringContaining("Not enough stored history") });
    const negative = persistenceCell({ ...UNKNOWN_PERSISTENCE, paid_share_7d: 0.2, apr_median_7d: -3 });
    expect(negative.text).toBe("paid 20% · med -3.00%");
    expect(negative.title).toContain("Positive since: not positive in the last whole hour");
  });
});

describe("hasPersistenceFigures", () => {
  it("needs the paid share or the median: a computed-to time alone is not figures", () => {
    expect(hasPersistenceFigures(UNKNOWN_PERSISTENCE)).toBe(false);
    expect(hasPersistenceFigures({ ...UNKNOWN_PERSISTENCE, as_of: "2026-11-24T12:00:00.000Z", apr_stddev_7d: 1 })).toBe(false);
    expect(hasPersistenceFigures({ ...UNKNOWN_PERSISTENCE, paid_share_7d: 0.5 })).toBe(true);
    expect(hasPersistenceFigures({ ...UNKNOWN_PERSISTENCE, apr_median_7d: -2 })).toBe(true);
  });
});
