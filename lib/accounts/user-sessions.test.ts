import { describe, expect, it } from "vitest";
import { isSessionActive, SESSION_IDLE_TIMEOUT_MS, SESSION_LIFETIME_MS } from "./user-sessions";

const start = new Date("2026-11-24T12:00:00Z");
const at = (ms: number) => new Date(start.getTime() + ms);
const fresh = { revokedAt: null, expiresAt: at(SESSION_LIFETIME_MS), lastSeenAt: start };

describe("isSessionActive", () => {
  it("admits a live session until just before the idle timeout", () => {
    expect(isSessionActive(fresh, start)).toBe(true);
    expect(isSessionActive(fresh, at(SESSION_IDLE_TIMEOUT_MS - 1))).toBe(true);
    expect(isSessionActive(fresh, at(SESSION_IDLE_TIMEOUT_MS))).toBe(false);
  });

  it("refuses a revoked session at once", () => {
    expect(isSessionActive({ ...fresh, revokedAt: start }, start)).toBe(false);
  });

  it("refuses a session past its lifetime however recently used", () => {
    const lastSeenAt = at(SESSION_LIFETIME_MS - 1000);
    expect(isSessionActive({ ...fresh, lastSeenAt }, at(SESSION_LIFETIME_MS - 1))).toBe(true);
    expect(isSessionActive({ ...fresh, lastSeenAt }, at(SESSION_LIFETIME_MS))).toBe(false);
  });
});
