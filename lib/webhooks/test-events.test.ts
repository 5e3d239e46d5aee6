import { describe, expect, it } from "vitest";
import { EVENT_DATA_SCHEMAS } from "@/lib/events/event-data";
import { EVENT_TYPES } from "@/lib/events/event-types";
import { testEventData } from "./test-events";

describe("testEventData", () => {
  it.each(EVENT_TYPES)("gives %s the shape real events of that type have", (type) => {
    const data = testEventData(type, new Date("2026-11-21T16:00:30Z"));
    // Strict: the sample carries exactly the type's fields, no marker inside `data`.
    const schema = EVENT_DATA_SCHEMAS[type];
    expect(schema.safeParse(data).success).toBe(true);
    expect(Object.keys(data).sort()).toEqual(Object.keys(schema.shape).sort());
  });
});
