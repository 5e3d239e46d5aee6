import { beforeAll, describe, expect, it } from "vitest";
import type { Db } from "@/lib/db";
import { eventId, eventSequence } from "@/lib/events/event-types";
import { readEventPage } from "@/lib/events/read-events";
import { sandboxTickEvents } from "@/lib/events/sandbox-tick-events";
import { writeDueSandboxTicks, writeSandboxTick } from "@/lib/events/sandbox-ticks";
import { testDatabaseForFile } from "@/tests/support/test-database-for-file";

const MINUTE = 60_000;
const config = { SANDBOX_TICK_MS: MINUTE, EVENTS_NET_APR_THRESHOLD: 5 };
const database = testDatabaseForFile();
let db: Db;

beforeAll(async () => {
  db = database.db;
});

describe("the sandbox's ticks", () => {
  it("write each tick's events once, whichever of several writers claims it, as test-mode events", async () => {
    const tick = new Date("2026-11-20T12:34:00Z");
    const outcomes = await Promise.all([1, 2, 3].map(() => writeSandboxTick(db, tick, MINUTE, 5)));
    expect(outcomes.filter(Boolean)).toHaveLength(1);
    const expected = sandboxTickEvents(tick, MINUTE);
    const { items } = await readEventPage(db, { mode: "test", userId: "no-account" }, { limit: 1000 });
    expect(items.map((e) => ({ type: e.type, data: e.data }))).toEqual(expected.map((e) => JSON.parse(JSON.stringify(e))));
    expect(await db.marketEvent.count({ where: { mode: "LIVE" } })).toBe(0);
    expect(await writeSandboxTick(db, tick, MINUTE, 5)).toBe(false);
  });

  it("catch up the ticks missed since the last one written, in order, then wait for the next", async () => {
    const last = await db.marketEvent.findFirst({ orderBy: { sequence: "desc" } });
    const now = Date.parse("2026-11-20T12:37:30Z");
    const written = await writeDueSandboxTicks(db, config, now);
    expect(written.map((t) => t.toISOString())).toEqual(["2026-11-20T12:35:00.000Z", "2026-11-20T12:36:00.000Z", "2026-11-20T12:37:00.000Z"]);
    // Page by page: three ticks of the sandbox's every venue are more than a page.
    const items: Awaited<ReturnType<typeof readEventPage>>["items"] = [];
    for (let after = last!.sequence; ; ) {
      const page = await readEventPage(db, { mode: "test", userId: "no-account" }, { after, limit: 1000 });
      items.push(...page.items);
      if (!page.has_more) break;
      after = eventSequence(page.items.at(-1)!.id)!;
    }
    const expected = written.flatMap((tick) => sandboxTickEvents(tick, MINUTE));
    expect(items.map((e) => e.type)).toEqual(expected.map((e) => e.type));
    // Ids follow the ticks' order.
    expect(items.map((e) => e.id)).toEqual([...items.map((e) => e.id)].sort());
    expect(items[0]!.id > eventId(last!.sequence)).toBe(true);
    expect(await writeDueSandboxTicks(db, config, now + 20_000)).toEqual([]);
  });
});
