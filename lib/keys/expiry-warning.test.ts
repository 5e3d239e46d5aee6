import { describe, expect, it } from "vitest";
import type { KeyView } from "./account-keys";
import { EXPIRY_WARNING_DAYS, keysExpiringSoon, timeUntil } from "./expiry-warning";

const NOW = Date.parse("2026-11-24T12:00:00.000Z");
const HOUR = 60 * 60 * 1000;
const DAY = 24 * HOUR;

function key(id: string, expiresInMs: number | null, extra: Partial<KeyView> = {}): KeyView {
  return {
    id,
    name: id,
    prefix: "svc_sk_live_AAAAAAAA…",
    mode: "live",
    permissions: ["opportunities:read"],
    created_at: "2026-11-01T00:00:00.000Z",
    last_used_at: null,
    expires_at: expiresInMs === null ? null : new Date(NOW + expiresInMs).toISOString(),
    revoked_at: null,
    status: "active",
    allowed_ips: [],
    ...extra,
  };
}

describe("keysExpiringSoon", () => {
  it(`lists the active keys expiring within ${EXPIRY_WARNING_DAYS} days, soonest first`, () => {
    const keys = [
      key("week", EXPIRY_WARNING_DAYS * DAY),
      key("later", EXPIRY_WARNING_DAYS * DAY + 1),
      key("never", null),
      key("hour", HOUR),
      key("past", -1, { status: "expired" }),
      key("revoked", DAY, { status: "revoked", revoked_at: new Date(NOW - HOUR).toISOString() }),
      key("rolled", DAY, { revoked_at: new Date(NOW + HOUR).toISOString() }),
    ];
    expect(keysExpiringSoon(keys, NOW).map((k) => k.id)).toEqual(["hour", "week"]);
  });

  it("leaves out a key whose expiry has just passed but that was listed as active", () => {
    expect(keysExpiringSoon([key("gone", -1)], NOW)).toEqual([]);
  });
});

describe("timeUntil", () => {
  it.each([
    [3 * DAY + 5 * HOUR, "in 3 days"],
    [DAY, "in 1 day"],
    [DAY - 1, "in 23 hours"],
    [HOUR, "in 1 hour"],
    [HOUR - 1, "in less than an hour"],
  ])("says %i ms as %j", (ms, text) => {
    expect(timeUntil(new Date(NOW + ms).toISOString(), NOW)).toBe(text);
  });
});
