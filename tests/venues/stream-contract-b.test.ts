import { gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { AppError } from "@/lib/errors";
import { VENUE_IDS } from "@/lib/market/model/types";
import { BACKPACK_STREAMS_PER_FRAME, BACKPACK_STREAMS_PER_SOCKET, backpackStream } from "@/lib/market/venues/streams/backpack";
import { bitmexStream } from "@/lib/market/venues/streams/bitmex";
import { coinexStream } from "@/lib/market/venues/streams/coinex";
import { deribitStream } from "@/lib/market/venues/streams/deribit";
import { grvtStream } from "@/lib/market/venues/streams/grvt";
import { htxStream } from "@/lib/market/venues/streams/htx";
import { KUCOIN_FUTURES_BULLET_URL, KUCOIN_SYMBOLS_PER_SOCKET, KUCOIN_SYMBOLS_PER_TOPIC, kucoinfuturesStream } from "@/lib/market/venues/streams/kucoinfutures";
import { MEXC_SYMBOLS_PER_SOCKET, mexcStream } from "@/lib/market/venues/streams/mexc";
import { phemexStream } from "@/lib/market/venues/streams/phemex";
import type { StreamEvent, StreamUpdate } from "@/lib/market/venues/streams/stream-protocol";
import { STREAM_PROTOCOLS_B } from "@/lib/market/venues/streams/stream-protocols-b";
import { WOO_TOPICS_PER_FRAME, WOO_TOPICS_PER_SOCKET, wooStream } from "@/lib/market/venues/streams/woo";
import { STREAM_EXPECTATIONS_B, streamFixtureLines, type StreamExpectationRow } from "./stream-expectations-b";

const RECEIVED_AT = Date.UTC(2026, 11, 2);

/** A line as the venue sends it: gzip binary where the venue compresses. */
function wire(row: StreamExpectationRow, line: string): string | Buffer {
  return row.gzip ? gzipSync(Buffer.from(line, "utf8")) : line;
}

function updatesOf(events: StreamEvent[]): StreamUpdate[] {
  return events.flatMap((event) => (event.kind === "updates" ? event.updates : []));
}

/** Every line of a row's fixtures, decoded as the venue sends it. */
function decodedLines(row: StreamExpectationRow): { at: string; events: StreamEvent[] }[] {
  return row.fixtures.flatMap((fixture) =>
    streamFixtureLines(fixture).map((line, i) => ({ at: `${fixture}:${i + 1}`, events: row.protocol.decode(wire(row, line), RECEIVED_AT) })),
  );
}

function ids(count: number, prefix: string): string[] {
  return Array.from({ length: count }, (_, i) => `${prefix}${i}`);
}

describe("the stream protocol table (part B)", () => {
  it("has one row per protocol, each for its own venue", () => {
    const venues = Object.keys(STREAM_PROTOCOLS_B);
    expect(venues.every((venue) => (VENUE_IDS as readonly string[]).includes(venue))).toBe(true);
    for (const [venue, protocol] of Object.entries(STREAM_PROTOCOLS_B)) expect(protocol?.venue, venue).toBe(venue);
    expect(STREAM_EXPECTATIONS_B.map((row) => row.protocol.venue).sort()).toEqual([...venues].sort());
  });

  it("states a stall window and a keepalive the venue documents", () => {
    for (const protocol of Object.values(STREAM_PROTOCOLS_B)) {
      if (!protocol) continue;
      expect(protocol.stallAfterMs, protocol.venue).toBeGreaterThanOrEqual(5_000);
      if (protocol.keepalive) expect(protocol.keepalive.everyMs, protocol.venue).toBeGreaterThan(0);
      expect(protocol.sockets([]), protocol.venue).toEqual([]);
    }
  });
});

for (const row of STREAM_EXPECTATIONS_B) {
  describe(row.protocol.venue, () => {
    it(`${row.name}: sockets and subscribe frames`, () => {
      expect(row.protocol.sockets(row.markets)).toStrictEqual(row.sockets);
    });

    it(`${row.name}: every fixture line decodes, errors only where documented`, () => {
      const decoded = decodedLines(row);
      expect(decoded.length).toBeGreaterThan(0);
      for (const { at, events } of decoded) {
        expect(events.length, at).toBeGreaterThan(0);
        const errors = events.filter((event) => event.kind === "error");
        expect(errors.length, at).toBe(row.errorLines.includes(at) ? 1 : 0);
        if (row.errorLines.includes(at)) expect(events, at).toHaveLength(1);
      }
      for (const listed of row.errorLines) expect(decoded.map((line) => line.at)).toContain(listed);
    });

    it(`${row.name}: chosen frames`, () => {
      for (const frame of row.frames) {
        const line = streamFixtureLines(frame.fixture)[frame.line - 1];
        expect(line, `${frame.fixture}:${frame.line}`).toBeDefined();
        expect(row.protocol.decode(wire(row, line ?? ""), RECEIVED_AT), `${frame.fixture}:${frame.line}`).toStrictEqual(frame.events);
      }
    });

    it(`${row.name}: fields are numbers or null, never NaN or undefined`, () => {
      const updates = decodedLines(row).flatMap(({ events }) => updatesOf(events));
      expect(updates.length).toBeGreaterThan(0);
      for (const update of updates) {
        expect(update.venueMarketId).not.toBe("");
        expect(Object.keys(update.fields).length).toBeGreaterThan(0);
        for (const [key, value] of Object.entries(update.fields)) {
          expect(value === null || (typeof value === "number" && Number.isFinite(value)), `${update.venueMarketId}.${key}`).toBe(true);
        }
        expect(update.venueTime === null || Number.isFinite(update.venueTime)).toBe(true);
      }
    });

    it(`${row.name}: a malformed frame is one error event, never a throw`, () => {
      for (const bad of ["{not json", "", "[]", "null", Buffer.from([0x1f, 0x8b, 0x08, 0x00, 0x01]), gzipSync(Buffer.from("{\"op\":"))]) {
        const events = row.protocol.decode(bad, RECEIVED_AT);
        expect(events).toHaveLength(1);
        expect(events[0]?.kind).toBe("error");
      }
    });
  });
}

describe("subscription limits", () => {
  it("mexc: one sub.ticker frame per contract, 30 contracts a socket", () => {
    const sockets = mexcStream.sockets(ids(70, "C"));
    expect(sockets.map((socket) => socket.subscribe.length)).toEqual([MEXC_SYMBOLS_PER_SOCKET, MEXC_SYMBOLS_PER_SOCKET, 10]);
    expect(sockets.flatMap((socket) => socket.subscribe).map((frame) => (JSON.parse(frame) as { param: { symbol: string } }).param.symbol)).toEqual(ids(70, "C"));
  });

  it("kucoinfutures: at most 100 symbols a topic, 300 a socket", () => {
    const sockets = kucoinfuturesStream.sockets(ids(450, "S"));
    expect(sockets).toHaveLength(2);
    const topics = sockets.map((socket) => socket.subscribe.map((frame) => (JSON.parse(frame) as { topic: string }).topic.split(":")[1]?.split(",").length));
    expect(topics).toEqual([[KUCOIN_SYMBOLS_PER_TOPIC, KUCOIN_SYMBOLS_PER_TOPIC, KUCOIN_SYMBOLS_PER_TOPIC], [100, 50]]);
    expect(KUCOIN_SYMBOLS_PER_SOCKET).toBe(3 * KUCOIN_SYMBOLS_PER_TOPIC);
  });

  it("woo: two topics a market, 10 topics a frame, 100 a socket", () => {
    const sockets = wooStream.sockets(ids(120, "PERP_X"));
    expect(sockets).toHaveLength(3);
    for (const socket of sockets) {
      const params = socket.subscribe.map((frame) => (JSON.parse(frame) as { params: string[] }).params);
      expect(params.every((topics) => topics.length <= WOO_TOPICS_PER_FRAME)).toBe(true);
      expect(params.flat().length).toBeLessThanOrEqual(WOO_TOPICS_PER_SOCKET);
    }
    expect(sockets.map((socket) => socket.subscribe.length)).toEqual([10, 10, 4]);
  });

  it("backpack: 50 streams a frame, 100 a socket", () => {
    const sockets = backpackStream.sockets(ids(230, "M"));
    expect(sockets.map((socket) => socket.subscribe.map((frame) => (JSON.parse(frame) as { params: string[] }).params.length))).toEqual([
      [BACKPACK_STREAMS_PER_FRAME, BACKPACK_STREAMS_PER_FRAME],
      [50, 50],
      [30],
    ]);
    expect(BACKPACK_STREAMS_PER_SOCKET).toBe(100);
  });

  it("deribit and grvt: many instruments on one socket, split into frames", () => {
    const deribit = deribitStream.sockets(ids(150, "I"));
    expect(deribit).toHaveLength(1);
    expect(deribit[0]?.subscribe).toHaveLength(3);
    const grvt = grvtStream.sockets(ids(120, "G"));
    expect(grvt[0]?.subscribe.map((frame) => (JSON.parse(frame) as { params: { selectors: string[] } }).params.selectors.length)).toEqual([50, 50, 20]);
  });

  it("htx, coinex, phemex and bitmex: one all-market subscription whatever the market count", () => {
    for (const protocol of [htxStream, coinexStream, phemexStream, bitmexStream]) {
      const sockets = protocol.sockets(ids(500, "X"));
      expect(sockets, protocol.venue).toHaveLength(1);
      expect(sockets[0]?.subscribe, protocol.venue).toHaveLength(1);
    }
  });
});

describe("traps", () => {
  it("htx: funding_time (the calculation minute) is never the next settlement", () => {
    const lines = [...streamFixtureLines("htx/funding_rate_2021-2022_cmp.jsonl"), ...streamFixtureLines("htx/funding_rate_2020_tardis.jsonl")];
    for (const line of lines) {
      const raw = JSON.parse(line) as { data?: { contract_code: string; funding_time: string; settlement_time: string }[] };
      const updates = updatesOf(htxStream.decode(gzipSync(line), RECEIVED_AT));
      for (const row of raw.data ?? []) {
        const update = updates.find((u) => u.venueMarketId === row.contract_code);
        expect(update?.fields.nextFundingAt).toBe(Number(row.settlement_time));
      }
    }
    // The 2021 linear row: calculated at 09:33, settling at 16:00.
    const [, linear] = streamFixtureLines("htx/funding_rate_2021-2022_cmp.jsonl");
    expect(updatesOf(htxStream.decode(linear ?? "", RECEIVED_AT))[0]?.fields.nextFundingAt).not.toBe(1617309780000);
  });

  it("htx: text frames decode as well as gzip ones, and a ping is answered with its own ts", () => {
    const [, , third] = streamFixtureLines("htx/funding_rate_2020_tardis.jsonl");
    expect(htxStream.decode(third ?? "", RECEIVED_AT)).toStrictEqual(htxStream.decode(gzipSync(third ?? ""), RECEIVED_AT));
    expect(htxStream.decode(gzipSync(JSON.stringify({ op: "ping", ts: "1700000000123" })), RECEIVED_AT)).toStrictEqual([
      { kind: "reply", frame: JSON.stringify({ op: "pong", ts: "1700000000123" }) },
    ]);
  });

  it("kucoinfutures: the two granularities of one timestamp are never mixed", () => {
    const rates = streamFixtureLines("kucoinfutures/contract_instrument_2024-01-24_tardis.jsonl").flatMap((line) =>
      updatesOf(kucoinfuturesStream.decode(line, RECEIVED_AT)).flatMap((update) => (update.fields.fundingRate === undefined ? [] : [update.fields.fundingRate])),
    );
    // Lines 1 and 6 (granularity 60000); lines 3 and 5 (28800000: 3.9e-05, 3.8e-05) are not rates of the running period.
    expect(rates).toEqual([0.000038, 0.000032]);
  });

  it("kucoinfutures: the socket URL comes from bullet-public, asked for on every connect", async () => {
    const requests: { url: string; method: string | undefined }[] = [];
    const fakeFetch = (async (input: string | URL | Request, init?: RequestInit) => {
      requests.push({ url: String(input), method: init?.method });
      // The answer's shape as KuCoin documents it (and ccxt quotes it in pro/kucoin.js negotiateHelper).
      return new Response(
        JSON.stringify({
          code: "200000",
          data: { token: "2neAiuYvAU61ZDXANAGAsiL4-iAExhsBXZxftpOeh_55i3Ysy2q2LEsEWU64mdzUOPusi34M_wGoSf7iNyEWJ1UQy47YbpY4zVdzilNP-Bj3iXzrjjGlWtiYB9J6i9GjsxUuhPw3BlrzazF6ghq4Lzf7scStOz3KkxjwpsOBCH4=.WNQmhZQeUKIkh97KYgU0Lg==", instanceServers: [{ endpoint: "wss://ws-api-futures.kucoin.com/", protocol: "websocket", encrypt: true, pingInterval: 18000, pingTimeout: 10000 }] },
        }),
        { status: 200, headers: { "content-type": "application/json" } },
      );
    }) as typeof globalThis.fetch;
    const connectUrl = kucoinfuturesStream.connectUrl;
    expect(connectUrl).toBeDefined();
    const url = new URL(await connectUrl!(KUCOIN_FUTURES_BULLET_URL, fakeFetch));
    expect(`${url.origin}${url.pathname}`).toBe("wss://ws-api-futures.kucoin.com/");
    expect(url.searchParams.get("token")).toMatch(/^2neAiuYvAU61ZD.*WNQmhZQeUKIkh97KYgU0Lg==$/);
    await connectUrl!(KUCOIN_FUTURES_BULLET_URL, fakeFetch);
    expect(requests).toEqual([
      { url: KUCOIN_FUTURES_BULLET_URL, method: "POST" },
      { url: KUCOIN_FUTURES_BULLET_URL, method: "POST" },
    ]);
  });

  it("kucoinfutures: a refused or empty bullet answer fails the connect with a venue error", async () => {
    const answering = (status: number, body: unknown) => (async () => new Response(JSON.stringify(body), { status })) as unknown as typeof globalThis.fetch;
    const connectUrl = kucoinfuturesStream.connectUrl!;
    await expect(connectUrl(KUCOIN_FUTURES_BULLET_URL, answering(503, {}))).rejects.toBeInstanceOf(AppError);
    await expect(connectUrl(KUCOIN_FUTURES_BULLET_URL, answering(200, { code: "400100", msg: "error" }))).rejects.toMatchObject({ code: "VENUE_UNAVAILABLE" });
    await expect(connectUrl(KUCOIN_FUTURES_BULLET_URL, answering(200, { code: "200000", data: { token: "t", instanceServers: [] } }))).rejects.toBeInstanceOf(AppError);
  });

  it("deribit: a current_funding of 0 is the venue's 0, kept as a rate", () => {
    for (const fixture of ["deribit/ticker_BTC-PERPETUAL_2019_tardis.jsonl", "deribit/ticker_BTC-PERPETUAL_2022-06-02_cmp.jsonl"]) {
      for (const line of streamFixtureLines(fixture)) {
        expect(updatesOf(deribitStream.decode(line, RECEIVED_AT))[0]?.fields.fundingRate).toBe(0);
      }
    }
  });

  it("bitmex: a delta says nothing of the fields it lacks, an index symbol is no market, a text pong is alive", () => {
    const [, , , openInterestOnly] = streamFixtureLines("bitmex/instrument_2019-06-01_tardis.jsonl");
    expect(bitmexStream.decode(openInterestOnly ?? "", RECEIVED_AT)).toStrictEqual([{ kind: "heartbeat" }]);
    const [, , markOnly] = streamFixtureLines("bitmex/instrument_XBTUSD_2021-12-18_mst-gateway.jsonl");
    const fields = updatesOf(bitmexStream.decode(markOnly ?? "", RECEIVED_AT))[0]?.fields ?? {};
    expect(Object.keys(fields).sort()).toEqual(["indexPrice", "markPrice"]);
    // An index row beside a market's: the index is dropped, the market kept.
    const mixed = JSON.stringify({
      table: "instrument",
      action: "update",
      data: [
        { symbol: ".BXBT", markPrice: 46600.1, timestamp: "2021-12-18T20:03:05.000Z" },
        { symbol: "XBTUSDT", fundingRate: 0.0001, timestamp: "2021-12-18T20:03:05.000Z" },
      ],
    });
    expect(updatesOf(bitmexStream.decode(mixed, RECEIVED_AT)).map((update) => update.venueMarketId)).toEqual(["XBTUSDT"]);
    expect(bitmexStream.decode("pong", RECEIVED_AT)).toStrictEqual([{ kind: "heartbeat" }]);
  });

  it("phemex: an incremental frame without its fields list is read in the documented column order", () => {
    const [, snapshot] = streamFixtureLines("phemex/perp_market24h_pack_p_docs-example.jsonl");
    const withFields = JSON.parse(snapshot ?? "{}") as Record<string, unknown>;
    const { fields: _fields, ...incremental } = { ...withFields, type: "incremental" };
    expect(updatesOf(phemexStream.decode(JSON.stringify(incremental), RECEIVED_AT))).toStrictEqual(updatesOf(phemexStream.decode(snapshot ?? "", RECEIVED_AT)));
    // Columns come by name: a reordered frame reads the same values.
    const reordered = { ...withFields, fields: [...(withFields.fields as string[])].reverse(), data: (withFields.data as string[][]).map((cells) => [...cells].reverse()) };
    expect(updatesOf(phemexStream.decode(JSON.stringify(reordered), RECEIVED_AT))).toStrictEqual(updatesOf(phemexStream.decode(snapshot ?? "", RECEIVED_AT)));
  });

  it("grvt: a field GRVT sets to null (\"\") is null, one it leaves out stays absent", () => {
    const frame = JSON.stringify({ stream: "v1.ticker.d", selector: "ETH_USDT_Perp@500", sequence_number: "2", feed: { instrument: "ETH_USDT_Perp", funding_rate: "", mark_price: "2300.5" } });
    expect(updatesOf(grvtStream.decode(frame, RECEIVED_AT))).toStrictEqual([{ venueMarketId: "ETH_USDT_Perp", fields: { fundingRate: null, markPrice: 2300.5 }, venueTime: null }]);
  });

  it("coinex: every frame arrives as gzip binary and decodes as its text does", () => {
    for (const line of streamFixtureLines("coinex/state.update_2026-09-23_observatory.jsonl")) {
      expect(coinexStream.decode(gzipSync(line), RECEIVED_AT)).toStrictEqual(coinexStream.decode(line, RECEIVED_AT));
    }
  });

  it("woo: an unknown topic is acknowledged with no data; a refused request is an error", () => {
    const lines = streamFixtureLines("woo/v3_frames_2026-09-23_observatory.jsonl");
    expect(wooStream.decode(lines[3] ?? "", RECEIVED_AT)).toStrictEqual([{ kind: "ack" }]);
    expect(wooStream.decode(lines[4] ?? "", RECEIVED_AT)[0]?.kind).toBe("error");
  });
});
