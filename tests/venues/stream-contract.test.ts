import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { STREAM_PROTOCOLS } from "@/lib/market/venues/streams/stream-protocols";
import type { StreamEvent, VenueStreamProtocol } from "@/lib/market/venues/streams/stream-protocol";
import { STREAM_EXPECTATIONS, type StreamRow } from "./stream-expectations";

const FIXTURES = join(__dirname, "../fixtures/streams");
/** Decoding never reads the clock: any receive time gives the same events. */
const RECEIVED_AT = Date.UTC(2026, 11, 2, 13);

function lines(venue: string, file: string): string[] {
  return readFileSync(join(FIXTURES, venue, file), "utf8").split("\n").filter((line) => line.trim() !== "");
}

function protocolOf(row: StreamRow): VenueStreamProtocol {
  const protocol = STREAM_PROTOCOLS[row.venue];
  if (!protocol) throw new Error(`no stream protocol for ${row.venue}`);
  return protocol;
}

const errors = (events: StreamEvent[]) => events.filter((event) => event.kind === "error");

describe("stream protocols: the registry", () => {
  it("has one row per protocol and the right venue on each", () => {
    expect(STREAM_EXPECTATIONS.map((row) => row.venue).sort()).toEqual(Object.keys(STREAM_PROTOCOLS).sort());
    for (const [venue, protocol] of Object.entries(STREAM_PROTOCOLS)) expect(protocol?.venue).toBe(venue);
  });
});

describe.each(STREAM_EXPECTATIONS.map((row) => [row.venue, row] as const))("stream protocol %s", (venue, row) => {
  const protocol = protocolOf(row);

  it("decodes every recorded line without an error, except documented errors", () => {
    const files = readdirSync(join(FIXTURES, venue)).filter((file) => file.endsWith(".jsonl"));
    // Every file beside the SOURCES.md is one the row names, so none goes unchecked.
    expect([...files].sort()).toEqual([...row.files].sort());
    for (const file of row.files) {
      lines(venue, file).forEach((line, index) => {
        const at = `${file}:${index + 1}`;
        const events = protocol.decode(line, RECEIVED_AT);
        if (row.errorLines?.includes(at)) expect(errors(events), at).toHaveLength(1);
        else expect(errors(events), at).toEqual([]);
        // Binary frames (gzip venues aside) decode as their text does.
        expect(protocol.decode(Buffer.from(line, "utf8"), RECEIVED_AT), at).toEqual(events);
      });
    }
  });

  it.each(row.frames.map((frame, i) => [frame.trap ?? `${frame.file}:${frame.line}`, i] as const))("frame: %s", (_, i) => {
    const expectation = row.frames[i]!;
    const frame = expectation.frame ?? lines(venue, expectation.file!)[expectation.line! - 1];
    expect(frame, "the frame exists").toBeDefined();
    expect(protocol.decode(frame!, RECEIVED_AT)).toEqual(expectation.events);
  });

  it("never sends null for a field the message lacks, nor a non-finite number", () => {
    for (const file of row.files) {
      for (const line of lines(venue, file)) {
        for (const event of protocol.decode(line, RECEIVED_AT)) {
          if (event.kind !== "updates") continue;
          for (const update of event.updates) {
            expect(update.venueMarketId).not.toBe("");
            expect(Object.keys(update.fields).length).toBeGreaterThan(0);
            for (const value of Object.values(update.fields)) if (value !== null) expect(Number.isFinite(value)).toBe(true);
          }
        }
      }
    }
  });

  it("reads a malformed frame as one error event, without throwing", () => {
    for (const frame of ['{"topic":', "\u0000\u0001garbage", Buffer.from([0xff, 0xfe, 0x00])]) {
      const events = protocol.decode(frame, RECEIVED_AT);
      expect(events).toHaveLength(1);
      expect(events[0]?.kind).toBe("error");
    }
    // Valid JSON of no shape the venue sends is an error too, not a silent nothing.
    expect(errors(protocol.decode("42", RECEIVED_AT))).toHaveLength(1);
    expect(errors(protocol.decode('{"unexpected":true}', RECEIVED_AT))).toHaveLength(1);
  });

  it("plans the subscription for a few markets", () => {
    expect(protocol.sockets(row.plan.markets)).toEqual(row.plan.sockets);
    expect(protocol.sockets([])).toEqual([]);
  });

  it("keeps the venue's keepalive, stall and lifetime", () => {
    expect(protocol.keepalive).toEqual(row.keepalive);
    expect(protocol.stallAfterMs).toBe(row.stallAfterMs);
    expect(protocol.maxLifetimeMs).toBe(row.maxLifetimeMs);
  });

  it(`covers ${row.limits.markets} markets within the venue's limits, each once`, () => {
    const { limits } = row;
    const ids = limits.ids(limits.markets);
    const plans = protocol.sockets([...ids, ...ids.slice(0, 5)]);
    expect(plans).toHaveLength(limits.sockets);
    const topics = plans.flatMap((plan) => plan.subscribe.flatMap((frame) => limits.topicsOf(frame)));
    expect([...topics].sort()).toEqual([...limits.topicsFor(ids)].sort());
    for (const plan of plans) {
      if (limits.marketsPerSocket !== undefined) {
        const perSocket = plan.subscribe.flatMap((frame) => limits.topicsOf(frame)).length / (limits.topicsFor(["x"]).length || 1);
        expect(perSocket).toBeLessThanOrEqual(limits.marketsPerSocket);
      }
      for (const frame of plan.subscribe) {
        if (limits.frameBytes !== undefined) expect(Buffer.byteLength(frame)).toBeLessThanOrEqual(limits.frameBytes);
        if (limits.argsPerFrame !== undefined) expect(limits.topicsOf(frame).length).toBeLessThanOrEqual(limits.argsPerFrame);
      }
    }
  });
});
