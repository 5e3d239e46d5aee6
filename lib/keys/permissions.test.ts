import { describe, expect, it } from "vitest";
import {
  effectivePermissions,
  PERMISSIONS,
  permissionSchema,
  TIER_PERMISSIONS,
  tierFromDb,
  tierSchema,
  tierToDb,
  TIERS,
} from "@/lib/keys/permissions";

describe("permissions", () => {
  it("lists the four permissions", () => {
    expect(PERMISSIONS).toEqual(["opportunities:read", "simulations:read", "portfolio:read", "write"]);
  });

  it("validates permission names with zod", () => {
    expect(permissionSchema.parse("portfolio:read")).toBe("portfolio:read");
    expect(permissionSchema.safeParse("admin").success).toBe(false);
    expect(permissionSchema.safeParse("Write").success).toBe(false);
  });

  it("gives free none, pro the three reads and desk all four", () => {
    expect(TIER_PERMISSIONS.free).toEqual([]);
    expect(TIER_PERMISSIONS.pro).toEqual(["opportunities:read", "simulations:read", "portfolio:read"]);
    expect(TIER_PERMISSIONS.desk).toEqual([...PERMISSIONS]);
  });
});

describe("effectivePermissions", () => {
  it("is the intersection of the key's permissions and the tier's", () => {
    expect(effectivePermissions(PERMISSIONS, "desk")).toEqual([...PERMISSIONS]);
    expect(effectivePermissions(PERMISSIONS, "pro")).toEqual(["opportunities:read", "simulations:read", "portfolio:read"]);
    expect(effectivePermissions(PERMISSIONS, "free")).toEqual([]);
    expect(effectivePermissions(["write", "opportunities:read"], "pro")).toEqual(["opportunities:read"]);
    expect(effectivePermissions(["write"], "desk")).toEqual(["write"]);
    expect(effectivePermissions([], "desk")).toEqual([]);
  });

  it("drops unknown strings and repeats, and keeps the canonical order", () => {
    expect(effectivePermissions(["portfolio:read", "admin", "opportunities:read", "portfolio:read"], "desk")).toEqual([
      "opportunities:read",
      "portfolio:read",
    ]);
  });

  it("never grants more than either side holds", () => {
    const subsets = Array.from({ length: 16 }, (_, mask) => PERMISSIONS.filter((_, i) => mask & (1 << i)));
    for (const tier of TIERS) {
      for (const keyPermissions of subsets) {
        const effective = effectivePermissions(keyPermissions, tier);
        const tierHolds: readonly string[] = TIER_PERMISSIONS[tier];
        for (const permission of PERMISSIONS) {
          const expected = keyPermissions.includes(permission) && tierHolds.includes(permission);
          expect(effective.includes(permission)).toBe(expected);
        }
      }
    }
  });
});

describe("tiers", () => {
  it("are lowercase in the API and validated with zod", () => {
    expect(TIERS).toEqual(["free", "pro", "desk"]);
    expect(tierSchema.safeParse("PRO").success).toBe(false);
    expect(tierSchema.parse("desk")).toBe("desk");
  });

  it("map to and from the database enum", () => {
    expect(TIERS.map(tierToDb)).toEqual(["FREE", "PRO", "DESK"]);
    expect((["FREE", "PRO", "DESK"] as const).map(tierFromDb)).toEqual(["free", "pro", "desk"]);
    for (const tier of TIERS) expect(tierFromDb(tierToDb(tier))).toBe(tier);
  });
});
