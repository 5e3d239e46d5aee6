import { describe, expect, it } from "vitest";
import { asOneStatement } from "./direct-sql";

describe("asOneStatement", () => {
  it("makes each statement a WITH query, its placeholders moved past the ones before, and joins the values in order", () => {
    const one = asOneStatement([
      { text: "INSERT INTO a SELECT * FROM unnest($1::text[], $2::text[])", values: [["x"], ["y"]] },
      { text: "UPDATE b SET c = $1 WHERE d = $2 OR e = $1", values: ["c", "d"] },
      { text: "DELETE FROM f", values: [] },
      { text: "INSERT INTO g VALUES ($1)", values: [10] },
    ]);
    expect(one.text).toBe(
      "WITH s0 AS (INSERT INTO a SELECT * FROM unnest($1::text[], $2::text[])),\n" +
        "s1 AS (UPDATE b SET c = $3 WHERE d = $4 OR e = $3),\n" +
        "s2 AS (DELETE FROM f),\n" +
        "s3 AS (INSERT INTO g VALUES ($5))\n" +
        "SELECT 1",
    );
    expect(one.values).toEqual([["x"], ["y"], "c", "d", 10]);
  });

  it("moves two-digit placeholders whole ($10 stays one placeholder)", () => {
    const eleven = Array.from({ length: 11 }, (_, i) => `$${i + 1}`).join(", ");
    const one = asOneStatement([
      { text: "SELECT $1", values: [0] },
      { text: `INSERT INTO t VALUES (${eleven})`, values: Array.from({ length: 11 }, (_, i) => i + 1) },
    ]);
    expect(one.text).toContain("VALUES ($2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)");
    expect(one.values).toHaveLength(12);
  });
});
