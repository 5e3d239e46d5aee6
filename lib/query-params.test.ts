import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { integerParam, isWholeNumberText, MAX_QUERY_DETAILS, numberParam, pageParams, parseQuery } from "./query-params";

const problem = (schema: z.ZodType, text: string) => schema.safeParse(text).error?.issues[0]?.message;

describe("numberParam", () => {
  const number = numberParam();

  it("reads every number JSON can write, exponents included", () => {
    for (const [text, value] of [
      ["10", 10],
      ["-2.5", -2.5],
      ["0", 0],
      ["-0", -0],
      ["1e3", 1000],
      ["1E3", 1000],
      ["2.5e+2", 250],
      ["-3.774503626999415e-164", -3.774503626999415e-164],
      ["1e-400", 0],
      ["1.7976931348623157e308", Number.MAX_VALUE],
    ] as const) {
      expect(number.parse(text), text).toBe(value);
    }
  });

  it("also reads leading zeros and a fraction without digits on one side", () => {
    expect(number.parse("007")).toBe(7);
    expect(number.parse(".5")).toBe(0.5);
    expect(number.parse("5.")).toBe(5);
    expect(number.parse("-.5e1")).toBe(-5);
  });

  it("reads any finite double as JSON.stringify writes it", () => {
    fc.assert(
      fc.property(fc.double({ noNaN: true, noDefaultInfinity: true }), (value) => {
        expect(number.parse(JSON.stringify(value))).toBe(JSON.parse(JSON.stringify(value)));
      }),
    );
  });

  it("refuses hex, Infinity, NaN, signs, spaces and the empty string, saying what a number is", () => {
    for (const text of ["", " ", " 5", "5 ", "+5", "0x10", "0b1", "Infinity", "-Infinity", "NaN", "1e", "e5", "1e+", ".", "-", "1,5", "1.2.3", "1_000", "١"]) {
      expect(problem(number, text), JSON.stringify(text)).toBe("Must be a number: digits with an optional fraction and exponent, e.g. 10, -2.5 or 1e-3");
    }
  });

  it("refuses a number beyond the doubles' range as such", () => {
    expect(problem(number, "1e400")).toBe("Must be a number of reasonable size");
    expect(problem(number, `-1${"0".repeat(400)}`)).toBe("Must be a number of reasonable size");
  });
});

describe("integerParam", () => {
  const integer = integerParam(0, 1000);

  it("reads what JSON Schema calls an integer (type: integer), however it is written", () => {
    for (const [text, value] of [
      ["10", 10],
      ["010", 10],
      ["1e2", 100],
      ["1E+2", 100],
      ["100.0", 100],
      ["100.", 100],
      ["1.5e1", 15],
      ["1000e-1", 100],
      ["0.0", 0],
      ["-0", 0],
      ["0e-400", 0],
    ] as const) {
      expect(integer.parse(text), text).toBe(value);
    }
  });

  it("reads every integer JSON.stringify writes within the bounds", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 1000 }), (value) => {
        expect(integer.parse(JSON.stringify(value))).toBe(value);
      }),
    );
  });

  it("refuses numbers with a fraction, judged on their digits, not on the double they round to", () => {
    for (const text of ["1.5", "0.1", "1e-1", "15e-1", "1.00000000000000001", "0.99999999999999999", "1e-400"]) {
      expect(problem(integer, text), text).toMatch(/^Must be a whole number: /);
    }
  });

  it("refuses what is no number at all", () => {
    for (const text of ["", " 5", "+5", "0x10", "NaN", "Infinity", "ten", "5 "]) {
      expect(problem(integer, text), JSON.stringify(text)).toMatch(/^Must be a whole number: /);
    }
  });

  it("tells an out-of-range value its bound, however large", () => {
    expect(problem(integer, "1001")).toBe("Must be at most 1000");
    expect(problem(integer, "-1")).toBe("Must be at least 0");
    expect(problem(integer, "1e4")).toBe("Must be at most 1000");
    expect(problem(integer, "9".repeat(400))).toBe("Must be at most 1000");
    expect(problem(integer, "1e400")).toBe("Must be at most 1000");
    expect(problem(integer, `-${"9".repeat(400)}`)).toBe("Must be at least 0");
  });

  it("is documented as JSON Schema's integer with its bounds and default", () => {
    const { limit } = pageParams(100, 50);
    expect(z.toJSONSchema(limit, { io: "output" })).toMatchObject({ type: "integer", minimum: 1, maximum: 100, default: 50 });
  });
});

describe("isWholeNumberText", () => {
  it("agrees with exact decimal arithmetic", () => {
    // digits × 10^exponent, written in every way the syntax allows.
    const written = fc
      .tuple(fc.bigInt({ min: 0n, max: 10n ** 30n }), fc.integer({ min: -40, max: 40 }), fc.integer({ min: 0, max: 35 }), fc.boolean())
      .map(([digits, exponent, pointFromRight, capital]) => {
        const text = digits.toString();
        const point = Math.min(pointFromRight, text.length);
        const mantissa = point === 0 ? text : `${text.slice(0, text.length - point) || "0"}.${text.slice(text.length - point)}`;
        // value = digits × 10^(exponent − point)
        const whole = exponent - point >= 0 || digits % 10n ** BigInt(point - exponent) === 0n;
        return { text: `${mantissa}${capital ? "E" : "e"}${exponent}`, whole };
      });
    fc.assert(
      fc.property(written, ({ text, whole }) => {
        expect(isWholeNumberText(text), text).toBe(whole);
      }),
    );
  });
});

describe("parseQuery's list of problems", () => {
  const schema = z.strictObject({ limit: integerParam(1, 100).optional() });

  it("names every unknown parameter up to 20, then says how many more there were", () => {
    const url = new URL(`http://localhost/v1/x?${Array.from({ length: 500 }, (_, i) => `p${i}=1`).join("&")}`);
    let error: unknown;
    try {
      parseQuery(url, schema);
    } catch (e) {
      error = e;
    }
    const details = (error as { extra: { details: { field: string; message: string }[] } }).extra.details;
    expect(details).toHaveLength(MAX_QUERY_DETAILS + 1);
    expect(details.slice(0, MAX_QUERY_DETAILS).map((d) => d.field)).toEqual(Array.from({ length: 20 }, (_, i) => `p${i}`));
    expect(details.at(-1)).toEqual({ field: "(more)", message: "480 more problems not listed" });
  });

  it("lists a few problems as they are", () => {
    const url = new URL("http://localhost/v1/x?a=1&b=2&limit=3&limit=4");
    expect(() => parseQuery(url, schema)).toThrow(
      expect.objectContaining({
        extra: {
          details: [
            { field: "a", message: "Unknown query parameter" },
            { field: "b", message: "Unknown query parameter" },
            { field: "limit", message: "Parameter given more than once" },
          ],
        },
      }),
    );
  });
});
