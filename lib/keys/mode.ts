export const KEY_MODES = ["live", "test"] as const;
export type KeyMode = (typeof KEY_MODES)[number];

export const KEY_PREFIXES = {
  live: "svc_sk_live_",
  test: "svc_sk_test_",
} as const satisfies Record<KeyMode, string>;

/** The Prisma `KeyMode` enum's values, spelled out so this module stays free of the generated client. */
export type DbKeyMode = "LIVE" | "TEST";

export function keyModeToDb(mode: KeyMode): DbKeyMode {
  return mode === "live" ? "LIVE" : "TEST";
}

export function keyModeFromDb(mode: DbKeyMode): KeyMode {
  return mode === "LIVE" ? "live" : "test";
}
