import { describe, expect, it } from "vitest";
import { nextVenueStaleAt, venueFreshness } from "./venue-status";

const NOW = Date.parse("2026-11-24T12:00:00.000Z");
const THREE_MINUTES = 180_000;
const ago = (ms: number) => new Date(NOW - ms);

describe("venueFreshness", () => {
  it("gives the age since the last success and the threshold, stale past it", () => {
    expect(venueFreshness({ status: "ok", lastSuccessAt: ago(45_500) }, THREE_MINUTES, NOW)).toEqual({
      status: "ok",
      data_age_seconds: 45.5,
      stale_after_seconds: 180,
    });
    expect(venueFreshness({ status: "ok", lastSuccessAt: ago(THREE_MINUTES) }, THREE_MINUTES, NOW).status).toBe("ok");
    expect(venueFreshness({ status: "ok", lastSuccessAt: ago(THREE_MINUTES + 1) }, THREE_MINUTES, NOW)).toEqual({
      status: "stale",
      data_age_seconds: 180.001,
      stale_after_seconds: 180,
    });
  });

  it("is stale after a failed refresh however young its data, and without an age before any success", () => {
    expect(venueFreshness({ status: "stale", lastSuccessAt: ago(60_000) }, THREE_MINUTES, NOW)).toMatchObject({ status: "stale", data_age_seconds: 60 });
    expect(venueFreshness({ status: "stale", lastSuccessAt: null }, THREE_MINUTES, NOW)).toMatchObject({ status: "stale", data_age_seconds: null });
    expect(venueFreshness(undefined, THREE_MINUTES, NOW)).toMatchObject({ status: "stale", data_age_seconds: null });
  });

  it("reads a success stamped after now (another process's clock) as age 0", () => {
    expect(venueFreshness({ status: "ok", lastSuccessAt: ago(-2_000) }, THREE_MINUTES, NOW)).toMatchObject({ status: "ok", data_age_seconds: 0 });
  });
});

describe("nextVenueStaleAt", () => {
  it("is when the first venue still ok turns stale with time alone", () => {
    const venues = [
      { status: "ok" as const, last_success_at: ago(30_000).toISOString() },
      { status: "ok" as const, last_success_at: ago(100_000).toISOString() },
      { status: "stale" as const, last_success_at: ago(170_000).toISOString() },
      { status: "stale" as const, last_success_at: null },
    ];
    expect(nextVenueStaleAt(venues, THREE_MINUTES, NOW)).toBe(NOW - 100_000 + THREE_MINUTES + 1);
    expect(nextVenueStaleAt(venues.slice(2), THREE_MINUTES, NOW)).toBeUndefined();
  });
});
