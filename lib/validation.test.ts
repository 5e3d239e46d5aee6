import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { createKeySchema } from "@/lib/keys/account-keys";
import type { AppError } from "./errors";
import {
  dateOrDateTimeText,
  EARLIEST_INSTANT_MESSAGE,
  INSTANT_DATE_PATTERN,
  INSTANT_DATE_TIME_PATTERN,
  instantText,
  isPlausibleId,
  parseInput,
  storableText,
} from "./validation";

describe("storableText", () => {
  it("refuses the NUL character PostgreSQL cannot store, and keeps the schema's own rules", () => {
    const note = storableText(z.string().max(5, "too long"));
    expect(note.safeParse("fine").success).toBe(true);
    expect(note.safeParse("a\u0000b").error?.issues[0]?.message).toBe("Must not contain the NUL character (\\u0000)");
    expect(note.safeParse("toolong").error?.issues[0]?.message).toBe("too long");
  });

  it("guards a key's name in the account area", () => {
    const key = { mode: "test", permissions: ["opportunities:read"], expiry: { kind: "never" } };
    expect(createKeySchema.safeParse({ ...key, name: "bot" }).success).toBe(true);
    expect(createKeySchema.safeParse({ ...key, name: "b\u0000t" }).error?.issues[0]?.path).toEqual(["name"]);
  });
});

describe("isPlausibleId", () => {
  it("accepts our cuids and refuses what no row can have", () => {
    expect(isPlausibleId("cmwtmbtsj0005z77d6vypd61k")).toBe(true);
    for (const id of [undefined, "", "a\u0000b", "a/b", "x".repeat(65), "../etc"]) expect(isPlausibleId(id)).toBe(false);
  });
});

describe("instants in the year 2000 or later", () => {
  const zodDateTime = z.iso.datetime({ offset: true });
  const zodDate = z.iso.date();
  // Text near the ISO 8601 syntax: zod's own shapes, digits and separators in the right places, and noise.
  const digits = (n: number) => fc.string({ unit: fc.constantFrom(..."0123456789"), minLength: n, maxLength: n });
  const nearDate = fc.oneof(
    fc.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
    fc.tuple(fc.integer({ min: 1990, max: 2410 }), fc.integer({ min: 0, max: 13 }), fc.integer({ min: 0, max: 32 })).map(
      ([y, m, d]) => `${y}-${String(m).padStart(2, "0")}-${String(d).padStart(2, "0")}`,
    ),
    fc.tuple(digits(4), fc.constantFrom("-02-29", "-02-28", "-12-31", "-04-31")).map(([y, rest]) => y + rest),
  );
  const nearTime = fc.stringMatching(/^\d{2}:\d{2}(:\d{2}(\.\d{1,4})?)?([Zz]|[+-]\d{2}(:?\d{2})?)?$/);
  const nearDateTime = fc.tuple(nearDate, fc.constantFrom("T", "t", " "), nearTime).map(([d, t, time]) => d + t + time);

  it("match exactly what zod's ISO formats accept, in years from 2000 to 9999", () => {
    const from2000 = (text: string) => /^[2-9]\d{3}-/.test(text);
    fc.assert(
      fc.property(fc.oneof(nearDate, fc.string()), (text) => {
        expect(INSTANT_DATE_PATTERN.test(text), text).toBe(from2000(text) && zodDate.safeParse(text).success);
      }),
      { numRuns: 2000 },
    );
    fc.assert(
      fc.property(fc.oneof(nearDateTime, fc.string()), (text) => {
        expect(INSTANT_DATE_TIME_PATTERN.test(text), text).toBe(from2000(text) && zodDateTime.safeParse(text).success);
      }),
      { numRuns: 2000 },
    );
  });

  it("know the leap years", () => {
    for (const year of [2000, 2004, 2096, 2400, 9996]) expect(INSTANT_DATE_PATTERN.test(`${year}-02-29`), String(year)).toBe(true);
    for (const year of [2001, 2100, 2200, 2300, 9999]) expect(INSTANT_DATE_PATTERN.test(`${year}-02-29`), String(year)).toBe(false);
  });

  it("refuse an earlier year as such, and malformed text as malformed", () => {
    const instant = instantText("date-time", "malformed");
    const problem = (schema: z.ZodType, value: unknown) => schema.safeParse(value).error?.issues[0]?.message;
    expect(instant.parse("2000-01-01T00:00:00Z")).toBe("2000-01-01T00:00:00Z");
    expect(instant.parse("9999-12-31T23:59:59.999-23:59")).toBe("9999-12-31T23:59:59.999-23:59");
    // The year as written decides: this is 1999 in UTC, the next one 2000.
    expect(instant.safeParse("2000-01-01T00:30:00+01:00").success).toBe(true);
    expect(problem(instant, "1999-12-31T23:30:00-01:00")).toBe(EARLIEST_INSTANT_MESSAGE);
    for (const early of ["0000-01-01T00:00:00Z", "1999-12-31T23:59:59Z", "1600-02-29T00:00:00Z"]) {
      expect(problem(instant, early), early).toBe(EARLIEST_INSTANT_MESSAGE);
    }
    for (const malformed of ["1999-02-29T00:00:00Z", "10000-01-01T00:00:00Z", "+012026-01-01T00:00:00Z", "2026-01-01", "2026-01-01T00:00Z", "yesterday", "", 5]) {
      expect(problem(instant, malformed), String(malformed)).toBe("malformed");
    }
    const either = dateOrDateTimeText("malformed");
    expect(either.parse("2026-11-21")).toBe("2026-11-21");
    expect(either.parse("2026-11-21T00:00:00Z")).toBe("2026-11-21T00:00:00Z");
    expect(problem(either, "1999-12-31")).toBe(EARLIEST_INSTANT_MESSAGE);
    expect(problem(either, "1999-12-31T00:00:00Z")).toBe(EARLIEST_INSTANT_MESSAGE);
    expect(problem(either, "2026-11-31")).toBe("malformed");
  });

  it("are documented as their format and the very pattern the server checks", () => {
    expect(z.toJSONSchema(instantText("date-time", "x"))).toMatchObject({ type: "string", format: "date-time", pattern: INSTANT_DATE_TIME_PATTERN.source });
    expect(z.toJSONSchema(dateOrDateTimeText("x"), { io: "input" })).toMatchObject({
      anyOf: [
        { type: "string", format: "date-time", pattern: INSTANT_DATE_TIME_PATTERN.source },
        { type: "string", format: "date", pattern: INSTANT_DATE_PATTERN.source },
      ],
    });
  });
});

describe("storableText in the document", () => {
  it("states the NUL rule as a pattern", () => {
    const schema = storableText(z.string());
    const { pattern } = z.toJSONSchema(schema) as { pattern: string };
    expect(new RegExp(pattern).test("a\u0000b")).toBe(false);
    expect(new RegExp(pattern).test("fine\nwith newlines")).toBe(true);
  });
});

describe("parseInput's details", () => {
  it("name each unknown field, nested ones by their path, as an unknown query parameter is named", () => {
    const schema = z.strictObject({ name: z.string(), leg: z.strictObject({ exchange: z.string() }) });
    let details: unknown;
    try {
      parseInput(schema, { name: "x", stop_loss: 3, take_profit: 4, leg: { exchange: "okx", side: "long" } });
    } catch (error) {
      details = (error as AppError).extra.details;
    }
    expect(details).toEqual([
      { field: "leg.side", message: "Unknown field" },
      { field: "stop_loss", message: "Unknown field" },
      { field: "take_profit", message: "Unknown field" },
    ]);
  });
});
