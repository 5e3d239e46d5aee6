import { describe, expect, it } from "vitest";
import { ensureMonthStatement, ensureSettlementPartitions, MAX_PARTITION_MONTHS, monthsBetween, monthStart, nextMonth, partitionName } from "./settlement-partitions";

describe("month arithmetic", () => {
  it("finds a time's month, the next one across a year end, and its partition's name", () => {
    const at = Date.UTC(2025, 11, 31, 23, 59, 59, 999);
    expect(monthStart(at)).toBe(Date.UTC(2025, 11, 1));
    expect(nextMonth(Date.UTC(2025, 11, 1))).toBe(Date.UTC(2026, 0, 1));
    expect(partitionName(Date.UTC(2019, 8, 1))).toBe("FundingRate_p201909");
  });

  it("lists every month a range touches, bounds included", () => {
    expect(monthsBetween(Date.UTC(2025, 10, 30, 12), Date.UTC(2026, 1, 1))).toEqual([
      Date.UTC(2025, 10, 1),
      Date.UTC(2025, 11, 1),
      Date.UTC(2026, 0, 1),
      Date.UTC(2026, 1, 1),
    ]);
    expect(monthsBetween(Date.UTC(2026, 1, 1), Date.UTC(2026, 0, 1))).toEqual([]);
  });

  it("refuses a range of more months than any history holds, and times that are not finite", () => {
    expect(() => monthsBetween(0, Date.UTC(1970 + MAX_PARTITION_MONTHS / 12 + 2, 0, 1))).toThrow(/months/);
    expect(() => monthsBetween(Number.NaN, 0)).toThrow(/finite/);
  });

  it("bounds a month's partition from its first instant to the next month's", () => {
    const text = ensureMonthStatement(Date.UTC(2026, 1, 1));
    expect(text).toContain(
      `CREATE TABLE "FundingRate_p202602" PARTITION OF "FundingRate" FOR VALUES FROM ('2026-02-01 00:00:00.000') TO ('2026-03-01 00:00:00.000') ` +
        `WITH (autovacuum_vacuum_insert_threshold = 100000, autovacuum_vacuum_insert_scale_factor = 0)`,
    );
  });
});

describe("ensureSettlementPartitions", () => {
  it("asks once per month per database, after sweeping the default partition's months on first use", async () => {
    const sent: string[] = [];
    const database = {
      async query<Row>(statement: { text: string }) {
        sent.push(statement.text);
        const span = { from: Date.UTC(2024, 4, 3), to: Date.UTC(2024, 4, 20) };
        return (statement.text.includes("min(time)") ? [span] : []) as Row[];
      },
    };
    await ensureSettlementPartitions(database, Date.UTC(2026, 0, 5), Date.UTC(2026, 1, 5));
    const made = () => sent.filter((t) => t.includes("DO $$")).map((t) => /"(FundingRate_p\d+)" PARTITION OF/.exec(t)![1]);
    expect(made()).toEqual(["FundingRate_p202405", "FundingRate_p202601", "FundingRate_p202602"]);
    await ensureSettlementPartitions(database, Date.UTC(2026, 1, 9), Date.UTC(2026, 2, 1));
    expect(made()).toEqual(["FundingRate_p202405", "FundingRate_p202601", "FundingRate_p202602", "FundingRate_p202603"]);
    expect(sent.filter((t) => t.includes("min(time)"))).toHaveLength(1);
  });
});
