import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { AppError } from "@/lib/errors";
import { htxStream } from "@/lib/market/venues/streams/htx";
import { KUCOIN_FUTURES_BULLET_URL, kucoinfuturesStream } from "@/lib/market/venues/streams/kucoinfutures";
import { phemexStream } from "@/lib/market/venues/streams/phemex";
import type { StreamEvent, StreamUpdate, VenueStreamProtocol } from "@/lib/market/venues/streams/stream-protocol";
import { STREAM_PROTOCOLS } from "@/lib/market/venues/streams/stream-protocols";
import { HIP3_VENUE_IDS } from "@/lib/market/model/hip3-venues";
import { STREAM_EXPECTATIONS, type StreamRow } from "./stream-expectations";

const FIXTURES = join(__dirname, "../fixtures/streams");
/** Decoding never reads the clock: any receive time gives the same events. */
const RECEIVED_AT = Date.UTC(2026, 11, 2, 13);

function lines(venue: string, file: string): string[] {
  return readFileSync(join(FIXTURES, venue, file), "utf8").split("\n").filter((line) => line.trim() !== "");
}

/** A fixture file's frames: text lines, or (a `.hex` file) binary frames written one a line in hex. */
function framesOf(venue: string, file: string): (string | Buffer)[] {
  const read = lines(venue, file);
  return file.endsWith(".hex") ? read.map((line) => Buffer.from(line.trim(), "hex")) : read;
}

const allFiles = (row: StreamRow) => [...row.files, ...(row.binaryFiles ?? [])];

function protocolOf(row: StreamRow): VenueStreamProtocol {
  const protocol = STREAM_PROTOCOLS[row.venue];
  if (!protocol) throw new Error(`no stream protocol for ${row.venue}`);
  return protocol;
}

const errors = (events: StreamEvent[]) => events.filter((event) => event.kind === "error");
const updatesOf = (events: StreamEvent[]): StreamUpdate[] => events.flatMap((event) => (event.kind === "updates" ? event.updates : []));

describe("stream protocols: the registry", () => {
  it("has one row per protocol and the right venue on each", () => {
    expect(STREAM_EXPECTATIONS.map((row) => row.venue).sort()).toEqual(Object.keys(STREAM_PROTOCOLS).sort());
    for (const [venue, protocol] of Object.entries(STREAM_PROTOCOLS)) expect(protocol?.venue).toBe(venue);
  });
});

describe.each(STREAM_EXPECTATIONS.map((row) => [row.venue, row] as const))("stream protocol %s", (_venue, row) => {
  const protocol = protocolOf(row);
  // The fixture directory: the venue's id, or the one HIP-3 dexes share (a colon is no portable path).
  const venue = row.fixtureDir ?? row.venue;

  it("decodes every recorded line without an error, except documented errors", () => {
    const files = readdirSync(join(FIXTURES, venue)).filter((file) => file.endsWith(".jsonl"));
    // Every file beside the SOURCES.md is one the row names, so none goes unchecked.
    expect([...files].sort()).toEqual([...row.files].sort());
    const hexFiles = readdirSync(join(FIXTURES, venue)).filter((file) => file.endsWith(".hex"));
    expect([...hexFiles].sort()).toEqual([...(row.binaryFiles ?? [])].sort());
    for (const listed of [...(row.errorLines ?? []), ...(row.silentLines ?? [])]) expect(allFiles(row).some((file) => listed.startsWith(`${file}:`)), listed).toBe(true);
    for (const file of allFiles(row)) {
      framesOf(venue, file).forEach((frame, index) => {
        const at = `${file}:${index + 1}`;
        const events = protocol.decode(frame, RECEIVED_AT);
        if (row.silentLines?.includes(at)) expect(events, at).toEqual([]);
        else expect(events.length, at).toBeGreaterThan(0);
        if (row.errorLines?.includes(at)) expect(errors(events), at).toHaveLength(1);
        else expect(errors(events), at).toEqual([]);
        // A text line as a binary frame (gzip where the venue compresses, else its UTF-8 bytes), except
        // where binary frames are the venue's channel data and text its control plane (Paradex's SBE).
        if (typeof frame === "string" && !row.binaryFiles) {
          const binary = row.gzip ? gzipSync(frame) : Buffer.from(frame, "utf8");
          expect(protocol.decode(binary, RECEIVED_AT), at).toEqual(events);
        }
      });
    }
  });

  it.each(row.frames.map((frame, i) => [frame.trap ?? `${frame.file}:${frame.line}`, i] as const))("frame: %s", (_, i) => {
    const expectation = row.frames[i]!;
    const frame = expectation.frame ?? framesOf(venue, expectation.file!)[expectation.line! - 1];
    expect(frame, "the frame exists").toBeDefined();
    // toStrictEqual: a field the frame lacks must be absent, not present as undefined.
    expect(protocol.decode(frame!, RECEIVED_AT)).toStrictEqual(expectation.events);
  });

  it("never sends null for a field the message lacks, nor a non-finite number", () => {
    let count = 0;
    for (const file of allFiles(row)) {
      for (const frame of framesOf(venue, file)) {
        for (const update of updatesOf(protocol.decode(frame, RECEIVED_AT))) {
          count += 1;
          expect(update.venueMarketId).not.toBe("");
          expect(Object.keys(update.fields).length).toBeGreaterThan(0);
          for (const value of Object.values(update.fields)) if (value !== null) expect(Number.isFinite(value)).toBe(true);
          expect(update.venueTime === null || Number.isFinite(update.venueTime)).toBe(true);
        }
      }
    }
    expect(count, "the fixtures hold at least one market update").toBeGreaterThan(0);
  });

  it("reads a malformed frame as one error event, without throwing", () => {
    const truncatedGzip = gzipSync('{"op":"notify","data":[').subarray(0, 12);
    for (const frame of ['{"topic":', "\u0000\u0001garbage", Buffer.from([0xff, 0xfe, 0x00]), truncatedGzip, gzipSync("{not json")]) {
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

describe("traps beyond single frames", () => {
  it("htx: the next settlement is settlement_time on every row, never funding_time (the calculation minute)", () => {
    const recorded = [...lines("htx", "funding_rate_2021-2022_cmp.jsonl"), ...lines("htx", "funding_rate_2020_tardis.jsonl")];
    let rows = 0;
    for (const line of recorded) {
      const raw = JSON.parse(line) as { data?: { contract_code: string; funding_time: string; settlement_time: string }[] };
      const updates = updatesOf(htxStream.decode(gzipSync(line), RECEIVED_AT));
      for (const row of raw.data ?? []) {
        rows += 1;
        expect(updates.find((update) => update.venueMarketId === row.contract_code)?.fields.nextFundingAt).toBe(Number(row.settlement_time));
      }
    }
    expect(rows).toBe(6);
  });

  it("htx: a gzip ping is answered with its own ts", () => {
    expect(htxStream.decode(gzipSync(JSON.stringify({ op: "ping", ts: "1700000000123" })), RECEIVED_AT)).toStrictEqual([
      { kind: "reply", frame: JSON.stringify({ op: "pong", ts: "1700000000123" }) },
    ]);
  });

  it("kucoinfutures: of the two granularities of one timestamp, only the minute rate becomes the rate", () => {
    const rates = lines("kucoinfutures", "contract_instrument_2024-01-24_tardis.jsonl").flatMap((line) =>
      updatesOf(kucoinfuturesStream.decode(line, RECEIVED_AT)).flatMap((update) => (update.fields.fundingRate === undefined ? [] : [update.fields.fundingRate])),
    );
    // Lines 1 and 6 (granularity 60000); lines 3 and 5 (28800000: 3.9e-05, 3.8e-05) are settled rates.
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
          data: {
            token: "2neAiuYvAU61ZDXANAGAsiL4-iAExhsBXZxftpOeh_55i3Ysy2q2LEsEWU64mdzUOPusi34M_wGoSf7iNyEWJ1UQy47YbpY4zVdzilNP-Bj3iXzrjjGlWtiYB9J6i9GjsxUuhPw3BlrzazF6ghq4Lzf7scStOz3KkxjwpsOBCH4=.WNQmhZQeUKIkh97KYgU0Lg==",
            instanceServers: [{ endpoint: "wss://ws-api-futures.kucoin.com/", protocol: "websocket", encrypt: true, pingInterval: 18000, pingTimeout: 10000 }],
          },
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

  it("phemex: columns are read by name, and in the documented order when a frame omits its fields list", () => {
    const [, snapshot] = lines("phemex", "perp_market24h_pack_p_docs-example.jsonl");
    const documented = updatesOf(phemexStream.decode(snapshot!, RECEIVED_AT));
    expect(documented).toHaveLength(2);
    const withFields = JSON.parse(snapshot!) as { fields: string[]; data: string[][] } & Record<string, unknown>;
    const { fields: _omitted, ...incremental } = { ...withFields, type: "incremental" };
    expect(updatesOf(phemexStream.decode(JSON.stringify(incremental), RECEIVED_AT))).toStrictEqual(documented);
    const reordered = { ...withFields, fields: [...withFields.fields].reverse(), data: withFields.data.map((cells) => [...cells].reverse()) };
    expect(updatesOf(phemexStream.decode(JSON.stringify(reordered), RECEIVED_AT))).toStrictEqual(documented);
  });
});

describe("hyperliquid: per-coin subscriptions", () => {
  const protocol = STREAM_PROTOCOLS.hyperliquid!;
  const coins = (count: number) => Array.from({ length: count }, (_, i) => `C${i}`);
  const subscribed = (plans: ReturnType<VenueStreamProtocol["sockets"]>) =>
    plans.flatMap((plan) => plan.subscribe.map((frame) => (JSON.parse(frame) as { subscription: { coin: string } }).subscription.coin));

  it("names markets by coin (the connector's venueBase), not by the asset index that is its market id", () => {
    expect(protocol.streamKey?.({ venueMarketId: "0", venueBase: "BTC" })).toBe("BTC");
    expect(protocol.streamKey?.({ venueMarketId: "110000", venueBase: "xyz:SP500" })).toBe("xyz:SP500");
  });

  it("subscribes at most its 300 of the 1000 coins an IP may hold, the first ones listed; the HIP-3 dexes share the rest", () => {
    const plans = protocol.sockets(coins(1_300));
    expect(plans).toHaveLength(2);
    expect(subscribed(plans)).toEqual(coins(300));
    // Seven dexes of 100 coins each, beside the first dex's 300: the IP's 1000, on at most 9 of its 10 connections.
    const dexPlans = HIP3_VENUE_IDS.map((venue) => STREAM_PROTOCOLS[venue]!.sockets(coins(1_300).map((coin) => `${venue.slice(12)}:${coin}`)));
    expect(dexPlans.map((dexPlan) => subscribed(dexPlan).length)).toEqual(HIP3_VENUE_IDS.map(() => 100));
    expect(subscribed(plans).length + dexPlans.reduce((sum, dexPlan) => sum + subscribed(dexPlan).length, 0)).toBe(1_000);
    expect(plans.length + dexPlans.reduce((sum, dexPlan) => sum + dexPlan.length, 0)).toBe(9);
  });

  it("starts a socket for every 250 coins", () => {
    expect(protocol.sockets(coins(250))).toHaveLength(1);
    expect(protocol.sockets(coins(251)).map((plan) => plan.subscribe.length)).toEqual([250, 1]);
  });

  it("reads the all-dex channel it no longer subscribes as an unexpected frame", () => {
    const events = protocol.decode(JSON.stringify({ channel: "allDexsAssetCtxs", data: { ctxs: [["", [{ funding: "0.0000125" }]]] } }), RECEIVED_AT);
    expect(errors(events)).toHaveLength(1);
    expect(updatesOf(events)).toEqual([]);
  });
});
