import { describe, expect, it } from "vitest";
import { z } from "zod";
import { createKeySchema } from "@/lib/keys/account-keys";
import { isPlausibleId, storableText } from "./validation";

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
