import { describe, expect, it } from "vitest";
import { deliveryInterval } from "./weex";

describe("deliveryInterval", () => {
  it("is the even spacing of a contract's settlement times round the clock, in hours", () => {
    expect(deliveryInterval(["00:00:00", "08:00:00", "16:00:00"])).toEqual({ hours: 8, source: "venue" });
    expect(deliveryInterval(["16:00:00", "00:00:00", "08:00:00"])).toEqual({ hours: 8, source: "venue" });
    expect(deliveryInterval(["00:00:00"])).toEqual({ hours: 24, source: "venue" });
    expect(deliveryInterval(Array.from({ length: 24 }, (_, h) => `${String(h).padStart(2, "0")}:00:00`))).toEqual({ hours: 1, source: "venue" });
  });

  it("is null for uneven, part-hour, garbled or missing times", () => {
    expect(deliveryInterval(["00:00:00", "08:00:00", "12:00:00"])).toBeNull();
    expect(deliveryInterval(["00:30:00", "12:00:00"])).toBeNull();
    expect(deliveryInterval(["00:00:00", "00:00:00"])).toBeNull();
    expect(deliveryInterval(["midnight"])).toBeNull();
    expect(deliveryInterval([])).toBeNull();
    expect(deliveryInterval(undefined)).toBeNull();
  });
});
