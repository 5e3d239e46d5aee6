import { describe, expect, it } from "vitest";
import { formatMoney } from "./money";

describe("formatMoney", () => {
  it("reads Stripe's minor units with the currency's own decimals", () => {
    expect(formatMoney(1900, "usd")).toBe("$19.00");
    expect(formatMoney(123456, "eur")).toBe("€1,234.56");
    expect(formatMoney(1500, "jpy")).toBe("¥1,500");
    expect(formatMoney(0, "usd")).toBe("$0.00");
    expect(formatMoney(-500, "usd")).toBe("-$5.00");
  });
});
