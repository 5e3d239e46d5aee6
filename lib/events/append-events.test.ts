import { describe, expect, it } from "vitest";
import { runWhole } from "@/lib/time-slices";
import { encodedEventLogStatements, encodedEventSlices, eventLogStatements } from "./append-events";
import type { NewEvent } from "./event-data";

const events: NewEvent[] = Array.from({ length: 1_300 }, (_, i) => ({
  type: i % 2 ? "venue.stale" : "venue.recovered",
  data: { exchange: `venue${i}`, status: i % 2 ? "stale" : "ok", last_success_at: null, error: i % 2 ? `timeout "${i}"` : null },
}));

describe("appending events to the log", () => {
  it("appends events encoded beforehand, in slices, with the statement it writes for them at once", () => {
    const slices = encodedEventSlices(events);
    let pauses = 0;
    let step = slices.next();
    for (; !step.done; step = slices.next()) pauses += 1;

    // A pause every 512 events.
    expect(pauses).toBe(2);
    expect(encodedEventLogStatements("live", step.value)).toEqual(eventLogStatements("live", events));
    expect(JSON.parse(encodedEventLogStatements("test", step.value.slice(5, 7))[0]!.values[1] as string)).toEqual(
      events.slice(5, 7).map((e) => ({ type: e.type, data: e.data })),
    );
  });

  it("has no statement for no events", () => {
    expect(eventLogStatements("live", [])).toEqual([]);
    expect(encodedEventLogStatements("live", runWhole(encodedEventSlices([])))).toEqual([]);
  });
});
