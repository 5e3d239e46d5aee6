import { describe, expect, it } from "vitest";
import { zodDetails } from "@/lib/validation";
import { alertRuleInputSchema, alertRuleUpdateSchema } from "./alert-schema";

const problems = (schema: typeof alertRuleInputSchema | typeof alertRuleUpdateSchema, body: unknown) => {
  const parsed = schema.safeParse(body);
  return parsed.success ? [] : zodDetails(parsed.error);
};

describe("an alert rule's body", () => {
  it("names a condition its kind does not use, and accepts it unset (null or empty)", () => {
    expect(problems(alertRuleInputSchema, { name: "r", kind: "venue", symbol: "BTC" })).toContainEqual({
      field: "symbol",
      message: "A rule of kind venue does not use symbol: it may set exchanges",
    });
    expect(problems(alertRuleInputSchema, { name: "r", kind: "venue", min_net_apr: 5 }).map((p) => p.field)).toContain("min_net_apr");
    expect(problems(alertRuleInputSchema, { name: "r", kind: "venue", symbol: null, min_net_apr: null, exchanges: ["okx"] })).toEqual([]);
    expect(alertRuleInputSchema.parse({ name: " r ", kind: "opportunity", symbol: "BTC", min_net_apr: 20 })).toMatchObject({
      name: "r",
      kind: "opportunity",
      symbol: "BTC",
      min_net_apr: 20,
      endpoint_ids: [],
      cooldown_minutes: 60,
      enabled: true,
    });
  });

  it("refuses a blank name and repeated exchanges or endpoints, naming the field", () => {
    for (const schema of [alertRuleInputSchema, alertRuleUpdateSchema]) {
      const fields = (body: object) => problems(schema, { kind: "opportunity", ...body }).map((p) => p.field);
      expect(fields({ name: " \t " })).toContain("name");
      expect(fields({ name: "r", exchanges: ["okx", "okx"] })).toContain("exchanges");
      expect(fields({ name: "r", endpoint_ids: ["e1", "e1"] })).toContain("endpoint_ids");
    }
  });

  it("names an unknown field", () => {
    expect(problems(alertRuleInputSchema, { name: "r", kind: "venue", colour: "red" })).toContainEqual({ field: "colour", message: "Unknown field" });
  });
});
