import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { positionInputSchema } from "@/lib/portfolio/position-schema";
import { simulationInputSchema, tradeTargetChecks } from "./simulation-schema";

const good = <T>(valid: fc.Arbitrary<T>, ...invalid: fc.Arbitrary<unknown>[]) =>
  fc.oneof({ weight: 6, arbitrary: valid }, ...invalid.map((arbitrary) => ({ weight: 1, arbitrary })));
const leg = fc.record({
  exchange: good(fc.constantFrom("binance", "bybit", "okx"), fc.constant("ftx")),
  symbol: good(fc.constantFrom("BTC", "btc", "ETH"), fc.constantFrom("", "BTC/USDT")),
});
const opportunityId = good(fc.constant("BTC-binance-bybit"), fc.constantFrom("", "x".repeat(101)), fc.constant(null), fc.integer());
const legs = fc.record({ long: good(leg, fc.constant(null), fc.constant({ exchange: "okx" })), short: good(leg, fc.constant(null)) }, { requiredKeys: [] });
/** Bodies near the two shapes: either way of naming the legs, both, neither or half of one, with good and bad values and strangers. */
const bodies = fc
  .tuple(
    fc.oneof(
      fc.record({ opportunity_id: opportunityId }),
      legs,
      fc.tuple(fc.record({ opportunity_id: opportunityId }), legs).map(([a, b]) => ({ ...a, ...b })),
    ),
    fc.record(
      {
        notional_usd: good(fc.double({ min: 1, max: 100_000_000, noNaN: true }), fc.constantFrom(0, -5, "1000", 1e9)),
        holding_days: good(fc.integer({ min: 1, max: 365 }), fc.constantFrom(0, 366, 1.5)),
        mode: good(fc.constantFrom("projected", "historical"), fc.constant("optimistic")),
      },
      { requiredKeys: ["notional_usd", "holding_days"] },
    ),
    fc.option(fc.integer(), { freq: 10 }),
  )
  .map(([target, rest, leverage]) => ({ ...target, ...rest, ...(leverage !== null && { leverage }) }));

describe("tradeTargetChecks", () => {
  const extra = { holding_days: z.number().int().min(1).max(365), mode: z.enum(["projected", "historical"]).optional() };
  const { fieldByField, alternatives } = tradeTargetChecks(extra);

  it("accepts the same bodies field by field as its documented alternatives (oneOf)", () => {
    let accepted = 0;
    fc.assert(
      fc.property(bodies, (body) => {
        const byField = fieldByField.safeParse(body);
        expect(alternatives.safeParse(body).success, JSON.stringify(byField.error?.issues ?? body)).toBe(byField.success);
        if (byField.success) accepted++;
      }),
      { numRuns: 3000 },
    );
    expect(accepted).toBeGreaterThan(20);
  });
});

describe("the bodies naming legs", () => {
  const legs = { long: { exchange: "binance", symbol: "btc" }, short: { exchange: "bybit", symbol: "BTC" } };
  const problems = (schema: z.ZodType, body: unknown) => schema.safeParse(body).error?.issues.map((i) => [i.path.join("."), i.message]);

  it("name each field at fault, as a union alone could not", () => {
    expect(problems(simulationInputSchema, { opportunity_id: "x", ...legs, notional_usd: 5, holding_days: 1 })).toEqual([
      ["opportunity_id", "Give either opportunity_id or long and short, not both"],
    ]);
    expect(problems(simulationInputSchema, { notional_usd: 5, holding_days: 1 })).toEqual([
      ["long", "Required unless opportunity_id is given"],
      ["short", "Required unless opportunity_id is given"],
    ]);
    expect(problems(positionInputSchema, { long: legs.long, short: { exchange: "binance", symbol: "eth" }, notional_usd: 5 })).toEqual([
      ["short.exchange", "The legs must be on different exchanges"],
      ["short.symbol", "Both legs must trade the same asset"],
    ]);
    expect(problems(positionInputSchema, { opportunity_id: "x", notional_usd: 0 })).toEqual([["notional_usd", "Must be at least 1"]]);
  });

  it("give handlers the parsed body, symbols upper-cased and defaults applied", () => {
    expect(simulationInputSchema.parse({ ...legs, notional_usd: 5, holding_days: 1 })).toEqual({
      long: { exchange: "binance", symbol: "BTC" },
      short: { exchange: "bybit", symbol: "BTC" },
      notional_usd: 5,
      holding_days: 1,
      mode: "projected",
      costs: "fixed",
    });
    expect(positionInputSchema.parse({ opportunity_id: "x", notional_usd: 5 })).toEqual({ opportunity_id: "x", notional_usd: 5 });
  });

  it("are documented as one of the two strict shapes", () => {
    const json = z.toJSONSchema(positionInputSchema, { io: "input" }) as { type: string; oneOf: { required: string[]; additionalProperties: boolean }[] };
    expect(json.type).toBe("object");
    expect(json.oneOf.map((shape) => shape.required)).toEqual([
      ["opportunity_id", "notional_usd"],
      ["long", "short", "notional_usd"],
    ]);
    expect(json.oneOf.every((shape) => shape.additionalProperties === false)).toBe(true);
  });
});

describe("a simulation's costs", () => {
  const base = { opportunity_id: "BTC-binance-bybit", notional_usd: 1000, holding_days: 7 };
  const fields = (body: object) => {
    const parsed = simulationInputSchema.safeParse({ ...base, ...body });
    return parsed.success ? [] : parsed.error.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`);
  };

  it("take leverage only with order_books, and fee_bps and slippage_bps only without", () => {
    expect(fields({ leverage: 3 })).toEqual(["leverage: Only with costs order_books"]);
    expect(fields({ costs: "fixed", leverage: 3 })).toEqual(["leverage: Only with costs order_books"]);
    expect(fields({ costs: "order_books", leverage: 3 })).toEqual([]);
    expect(fields({ costs: "order_books", fee_bps: 4, slippage_bps: 1 })).toEqual([
      "fee_bps: Not with costs order_books: the quote charges each venue's fee (or yours)",
      "slippage_bps: Not with costs order_books: the slippage is walked from the books",
    ]);
    expect(fields({ fee_bps: 4, slippage_bps: 1 })).toEqual([]);
  });
});
