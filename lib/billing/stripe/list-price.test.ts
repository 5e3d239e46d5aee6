import { describe, expect, it } from "vitest";
import { planOf } from "@/lib/plans";
import { listPriceMismatch, type StripePriceTerms } from "./list-price";

const pro = planOf("pro");
const monthly = (fields: Partial<StripePriceTerms> = {}): StripePriceTerms => ({
  id: "price_pro",
  currency: "usd",
  unit_amount: pro.price!.usdPerMonth * 100,
  recurring: { interval: "month", interval_count: 1 },
  ...fields,
});

describe("listPriceMismatch", () => {
  it("accepts the list price in cents, monthly", () => {
    expect(listPriceMismatch(pro, monthly())).toBeNull();
  });

  it.each([
    ["another amount", { unit_amount: pro.price!.usdPerMonth * 100 + 1 }],
    ["dollars written as cents", { unit_amount: pro.price!.usdPerMonth }],
    ["another currency", { currency: "eur" }],
    ["a yearly price", { recurring: { interval: "year", interval_count: 1 } }],
    ["every two months", { recurring: { interval: "month", interval_count: 2 } }],
    ["a one-off price", { recurring: null }],
    ["a customer-chosen amount", { unit_amount: null }],
  ])("refuses %s, naming the price and both terms", (_, fields) => {
    const mismatch = listPriceMismatch(pro, monthly(fields));
    expect(mismatch).toContain("price_pro");
    expect(mismatch).toContain(`USD ${pro.price!.usdPerMonth * 100} cents every 1 month`);
  });

  it("refuses any price for a plan that is not sold", () => {
    expect(listPriceMismatch(planOf("free"), monthly())).toBe("Free is not sold");
  });
});
