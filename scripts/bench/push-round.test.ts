import { describe, expect, it } from "vitest";
import { roundEvents } from "./push-round";

describe("roundEvents", () => {
  it("derives the asked number of opportunity events: a tenth opened, a tenth closed, the rest updated", () => {
    const events = roundEvents(100);
    const count = (type: string) => events.filter((e) => e.type === type).length;
    expect(events).toHaveLength(100);
    expect(count("opportunity.opened")).toBe(10);
    expect(count("opportunity.closed")).toBe(10);
    expect(count("opportunity.updated")).toBe(80);
  });

  it("is the same every time", () => {
    expect(JSON.stringify(roundEvents(30))).toBe(JSON.stringify(roundEvents(30)));
  });
});
