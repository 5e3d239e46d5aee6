import { describe, expect, it } from "vitest";
import { EVENT_DATA_SCHEMAS } from "./event-data";
import { sandboxTickEvents, sandboxTickStart } from "./sandbox-tick-events";
import { MAX_CATCH_UP_TICKS, ticksToWrite } from "./sandbox-ticks";

const MINUTE = 60_000;
const TICK = new Date("2026-11-20T12:34:00Z");

describe("sandboxTickEvents", () => {
  it("gives the same events for the same tick, every time", () => {
    const first = sandboxTickEvents(TICK, MINUTE);
    expect(JSON.stringify(sandboxTickEvents(TICK, MINUTE))).toBe(JSON.stringify(first));
    for (const event of first) expect(() => EVENT_DATA_SCHEMAS[event.type].parse(event.data)).not.toThrow();
  });

  it("moves: the market's drift over a tick updates some opportunities, more over longer ticks", () => {
    const minute = sandboxTickEvents(TICK, MINUTE);
    const hour = sandboxTickEvents(TICK, 60 * MINUTE);
    expect(minute.some((e) => e.type === "opportunity.updated")).toBe(true);
    expect(hour.length).toBeGreaterThan(minute.length);
  });

  it("reports the daily interval shift in the tick that sees it, a minute after midnight", () => {
    const seen = sandboxTickEvents(new Date("2026-11-20T00:01:00Z"), MINUTE).filter((e) => e.type === "funding_interval.changed");
    expect(seen.length).toBeGreaterThan(0);
    expect(seen[0]!.data).toMatchObject({ change: { symbol: "SBXSHIFT", effective_at: "2026-11-20T00:00:00.000Z" } });
    expect(sandboxTickEvents(new Date("2026-11-20T00:02:00Z"), MINUTE).filter((e) => e.type === "funding_interval.changed")).toEqual([]);
  });
});

describe("ticksToWrite", () => {
  const now = TICK.getTime() + 12_345;
  it("writes only the current tick when none was written yet", () => {
    expect(ticksToWrite(null, now, MINUTE)).toEqual([TICK]);
  });
  it("catches up the ticks missed since the last written, oldest first, at most a bounded number", () => {
    expect(ticksToWrite(new Date(TICK.getTime() - 3 * MINUTE), now, MINUTE)).toEqual([2, 1, 0].map((n) => new Date(TICK.getTime() - n * MINUTE)));
    const long = ticksToWrite(new Date(TICK.getTime() - 500 * MINUTE), now, MINUTE);
    expect(long).toHaveLength(MAX_CATCH_UP_TICKS);
    expect(long.at(-1)).toEqual(TICK);
  });
  it("writes nothing when the current tick is written", () => {
    expect(ticksToWrite(TICK, now, MINUTE)).toEqual([]);
  });
  it("starts ticks at multiples of their length", () => {
    expect(sandboxTickStart(Date.parse("2026-11-20T12:34:56Z"), 5 * MINUTE)).toEqual(new Date("2026-11-20T12:30:00Z"));
  });
});
