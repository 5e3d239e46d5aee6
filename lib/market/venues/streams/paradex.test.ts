import { afterEach, describe, expect, it, vi } from "vitest";
import { marketSummaryFrame, mantissa, perpetualSummary, sbeHeader } from "@/tests/fixtures/streams/paradex/sbe-frames";
import { startWsReplayServer, type WsReplayServer } from "@/tests/support/ws-replay-server";
import { MARKET_SUMMARY_LAYOUT, paradexStream, readSbeHeader } from "./paradex";
import { StreamConnection } from "./stream-connection";
import type { StreamEvent, StreamUpdate } from "./stream-protocol";

const AT = Date.UTC(2026, 11, 2);
const decode = (frame: string | Buffer) => paradexStream.decode(frame, AT);
const summary = () => perpetualSummary("BTC-USD-PERP", { tsMicros: 1790000000654321n, mark: "91234.5", index: "91200.25", rate: "0.000031234567" });
const BTC: StreamUpdate = { venueMarketId: "BTC-USD-PERP", fields: { fundingRate: 0.000031234567, markPrice: 91234.5, indexPrice: 91200.25 }, venueTime: 1790000000654 };

function onlyError(events: StreamEvent[]): string {
  expect(events).toHaveLength(1);
  expect(events[0]?.kind).toBe("error");
  return events[0]?.kind === "error" ? events[0].message : "";
}

describe("paradex SBE decoding", () => {
  it("reads a version-1 MarketSummaryEvent at the schema's offsets", () => {
    const frame = summary();
    expect(readSbeHeader(frame)).toEqual({ blockLength: MARKET_SUMMARY_LAYOUT.blockLength, templateId: 4, schemaId: 1, version: 1 });
    expect(frame).toHaveLength(8 + 240 + 1 + "BTC-USD-PERP".length);
    expect(decode(frame)).toStrictEqual([{ kind: "updates", updates: [BTC] }]);
  });

  it("reports a frame truncated anywhere (header, block, market length, market bytes) as one error, never a partial update", () => {
    const frame = summary();
    for (let length = 0; length < frame.length; length++) {
      const message = onlyError(decode(frame.subarray(0, length)));
      expect(message, `${length} bytes`).toMatch(/^truncated/);
    }
  });

  it("reports an unknown template, and a known one this socket did not subscribe, without reading it", () => {
    expect(onlyError(decode(Buffer.concat([sbeHeader({ blockLength: 240, templateId: 99 }), summary().subarray(8)])))).toBe("unknown SBE template 99");
    expect(onlyError(decode(Buffer.concat([sbeHeader({ blockLength: 240, templateId: 5 }), summary().subarray(8)])))).toBe("SBE template 5 (FundingDataEvent) was not subscribed");
  });

  it("reports a schema id or version other than the negotiated 1:1, whatever the frame holds", () => {
    const body = summary().subarray(8);
    for (const [schemaId, version] of [[1, 0], [1, 2], [2, 1], [0, 0]] as const) {
      const message = onlyError(decode(Buffer.concat([sbeHeader({ blockLength: 240, schemaId, version }), body])));
      expect(message).toBe(`SBE schema ${schemaId}:${version}, not the negotiated 1:1 (template 4)`);
    }
  });

  it("refuses a version-0 block under a version-1 header, and skips fields appended past the version-1 block by its length", () => {
    const v0 = marketSummaryFrame("BTC-USD-PERP", { ts: 1n, markPrice: mantissa(1) }, {}, "v0");
    expect(onlyError(decode(v0))).toBe("MarketSummaryEvent block of 216 bytes, version 1 has 240");
    const frame = summary();
    const longer = Buffer.concat([sbeHeader({ blockLength: 248 }), frame.subarray(8, 248), Buffer.alloc(8, 0x7f), frame.subarray(248)]);
    expect(decode(longer)).toStrictEqual([{ kind: "updates", updates: [BTC] }]);
  });

  it("reads the control plane's JSON text: an ack and an error are no market data", () => {
    expect(decode('{"jsonrpc":"2.0","result":{"channel":"markets_summary.ALL"},"usIn":1,"usDiff":2,"id":1}')).toStrictEqual([{ kind: "ack" }]);
    expect(onlyError(decode('{"jsonrpc":"2.0","error":{"code":-32602,"message":"invalid params"},"id":1}'))).toBe("venue error -32602: invalid params");
    // The same JSON in a binary frame is not control traffic: binary frames are SBE channel data.
    onlyError(decode(Buffer.from('{"jsonrpc":"2.0","result":{"channel":"markets_summary.ALL"},"id":1}')));
  });

  it("never reads a market symbol that is not UTF-8 or is empty", () => {
    expect(onlyError(decode(marketSummaryFrame("", { ts: 1n })))).toBe("MarketSummaryEvent without a market symbol");
    const frame = summary();
    frame[frame.length - 1] = 0xff;
    expect(onlyError(decode(frame))).toBe("MarketSummaryEvent market symbol is not UTF-8");
  });
});

describe("paradex stream over a socket", () => {
  const servers: WsReplayServer[] = [];
  const connections: StreamConnection[] = [];
  afterEach(async () => {
    await Promise.all(connections.splice(0).map((connection) => connection.close()));
    await Promise.all(servers.splice(0).map((server) => server.close()));
  });

  it("negotiates SBE in the URL, counts the JSON ack and heartbeats as no data, and delivers binary frames as updates", async () => {
    const heartbeat = Buffer.concat([sbeHeader({ blockLength: 16, templateId: 40 }), Buffer.alloc(16)]);
    const server = await startWsReplayServer({
      answer: (frame) => (frame.includes('"method":"subscribe"') ? '{"jsonrpc":"2.0","result":{"channel":"markets_summary.ALL"},"id":1}' : undefined),
      frames: [heartbeat, { frame: summary(), delayMs: 200 }],
    });
    servers.push(server);
    const updates: StreamUpdate[][] = [];
    const states: string[] = [];
    const errors: string[] = [];
    const connection = new StreamConnection({
      protocol: paradexStream,
      venueMarketIds: ["BTC-USD-PERP"],
      resolveUrl: (url) => `${server.url}${new URL(url).pathname}${new URL(url).search}`,
      onUpdates: (batch) => updates.push(batch),
      onState: (state) => states.push(state),
      onError: (message) => errors.push(message),
    });
    connections.push(connection);
    connection.start();

    await vi.waitFor(() => expect(server.connections()[0]?.sent).toHaveLength(1), { timeout: 8_000, interval: 10 });
    expect(server.connections()[0]?.path).toBe("/v1?sbeSchemaId=1&sbeSchemaVersion=1");
    // The ack and the heartbeat arrived first: the socket is alive but no market is fresh yet.
    expect(connection.state).toBe("connecting");
    await vi.waitFor(() => expect(updates).toHaveLength(1), { timeout: 8_000, interval: 10 });
    expect(updates[0]).toStrictEqual([BTC]);
    expect(states).toEqual(["live"]);
    expect(errors).toEqual([]);
  });
});
