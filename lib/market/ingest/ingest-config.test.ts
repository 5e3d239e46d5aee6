import { describe, expect, it, vi } from "vitest";
import { liveFeedsOn, overrideFetch, overrideStreamUrl, readIngestConfig as readFrom, spotCredentials } from "./ingest-config";

const readIngestConfig = (vars: Record<string, string>) => readFrom(vars as NodeJS.ProcessEnv);

const production = { NODE_ENV: "production" } as NodeJS.ProcessEnv;

describe("INGEST_STREAMS and VENUE_STREAM_URL_OVERRIDE", () => {
  it("reads on, off and unset, and refuses anything else", () => {
    expect(readIngestConfig({}).INGEST_STREAMS).toBeUndefined();
    expect(readIngestConfig({ INGEST_STREAMS: "off" }).INGEST_STREAMS).toBe("off");
    expect(() => readIngestConfig({ INGEST_STREAMS: "yes" })).toThrow(/INGEST_STREAMS/);
  });

  it("takes only a ws:// or wss:// override", () => {
    expect(readIngestConfig({ VENUE_STREAM_URL_OVERRIDE: "ws://127.0.0.1:4100" }).VENUE_STREAM_URL_OVERRIDE).toBe("ws://127.0.0.1:4100");
    expect(() => readIngestConfig({ VENUE_STREAM_URL_OVERRIDE: "http://127.0.0.1:4100" })).toThrow(/VENUE_STREAM_URL_OVERRIDE/);
    expect(() => readIngestConfig({ VENUE_STREAM_URL_OVERRIDE: "127.0.0.1:4100" })).toThrow(/VENUE_STREAM_URL_OVERRIDE/);
  });
});

describe("PAIR_PRICE_BOUND", () => {
  it("is 5 % unless set, and takes a fraction above 0 and at most 2", () => {
    expect(readIngestConfig({}).PAIR_PRICE_BOUND).toBe(0.05);
    expect(readIngestConfig({ PAIR_PRICE_BOUND: "0.1" }).PAIR_PRICE_BOUND).toBe(0.1);
    expect(readIngestConfig({ PAIR_PRICE_BOUND: "2" }).PAIR_PRICE_BOUND).toBe(2);
    for (const bad of ["0", "-0.05", "5%", "3"]) expect(() => readIngestConfig({ PAIR_PRICE_BOUND: bad })).toThrow(/PAIR_PRICE_BOUND/);
  });
});

describe("liveFeedsOn", () => {
  const override = "ws://127.0.0.1:4100";

  it("is off unless asked for, and then on where rounds reach the venues", () => {
    expect(liveFeedsOn({}, { reachesVenues: true, env: production })).toBe(false);
    expect(liveFeedsOn({ INGEST_STREAMS: "off" }, { reachesVenues: true, env: production })).toBe(false);
    expect(liveFeedsOn({ INGEST_STREAMS: "on" }, { reachesVenues: true, env: production })).toBe(true);
  });

  it("stays off where rounds replay recorded answers, unless asked for and pointed at a replay server", () => {
    expect(liveFeedsOn({}, { reachesVenues: false, env: production })).toBe(false);
    expect(liveFeedsOn({ INGEST_STREAMS: "on" }, { reachesVenues: false, env: production })).toBe(false);
    expect(liveFeedsOn({ INGEST_STREAMS: "on", VENUE_STREAM_URL_OVERRIDE: override }, { reachesVenues: false, env: production })).toBe(true);
  });

  it("stays off in a test run even with the network fetcher, unless pointed at a replay server", () => {
    for (const env of [{ VITEST: "true" }, { NODE_ENV: "test" }] as NodeJS.ProcessEnv[]) {
      expect(liveFeedsOn({}, { reachesVenues: true, env })).toBe(false);
      expect(liveFeedsOn({ INGEST_STREAMS: "on" }, { reachesVenues: true, env })).toBe(false);
      expect(liveFeedsOn({ INGEST_STREAMS: "on", VENUE_STREAM_URL_OVERRIDE: override }, { reachesVenues: true, env })).toBe(true);
    }
    // This very process is a test run.
    expect(liveFeedsOn({}, { reachesVenues: true })).toBe(false);
  });
});

describe("overrideStreamUrl", () => {
  it("keeps the venue's host and path under the replay server, so one server tells venues apart", () => {
    expect(overrideStreamUrl("ws://127.0.0.1:4100", "wss://fstream.binance.com/ws")).toBe("ws://127.0.0.1:4100/fstream.binance.com/ws");
    expect(overrideStreamUrl("ws://127.0.0.1:4100", "wss://fstream.asterdex.com/ws")).toBe("ws://127.0.0.1:4100/fstream.asterdex.com/ws");
    expect(overrideStreamUrl("ws://127.0.0.1:4100/replay/", "wss://ws.okx.com:8443/ws/v5/public?brokerId=1")).toBe(
      "ws://127.0.0.1:4100/replay/ws.okx.com:8443/ws/v5/public?brokerId=1",
    );
  });

  it("sends a REST request (a connect token) to the same server over http", async () => {
    expect(overrideStreamUrl("ws://127.0.0.1:4100", "https://api-futures.kucoin.com/api/v1/bullet-public")).toBe(
      "http://127.0.0.1:4100/api-futures.kucoin.com/api/v1/bullet-public",
    );
    expect(overrideStreamUrl("wss://replay.test", "https://api-futures.kucoin.com/api/v1/bullet-public")).toBe("https://replay.test/api-futures.kucoin.com/api/v1/bullet-public");
    const seen = vi.fn(async (input: string | URL | Request, init?: RequestInit) => new Response(`${input instanceof Request ? `${input.method} ${input.url}` : `${init?.method} ${String(input)}`}`));
    const fetch = overrideFetch("ws://127.0.0.1:4100", seen as typeof globalThis.fetch);
    expect(await (await fetch("https://api-futures.kucoin.com/api/v1/bullet-public", { method: "POST" })).text()).toBe(
      "POST http://127.0.0.1:4100/api-futures.kucoin.com/api/v1/bullet-public",
    );
    expect(await (await fetch(new Request("https://api-futures.kucoin.com/api/v1/bullet-public", { method: "POST" }))).text()).toBe(
      "POST http://127.0.0.1:4100/api-futures.kucoin.com/api/v1/bullet-public",
    );
  });
});

describe("INGEST_SPOT and the spot venues' read-only keys", () => {
  it("is on unless set off, and refuses anything else", () => {
    expect(readIngestConfig({}).INGEST_SPOT).toBe("on");
    expect(readIngestConfig({ INGEST_SPOT: "off" }).INGEST_SPOT).toBe("off");
    expect(readIngestConfig({ INGEST_SPOT: "on" }).INGEST_SPOT).toBe("on");
    expect(() => readIngestConfig({ INGEST_SPOT: "no" })).toThrow(/INGEST_SPOT/);
  });

  it("takes a venue's key with its secret, and stops on one without the other", () => {
    expect(spotCredentials(readIngestConfig({}))).toEqual({});
    expect(spotCredentials(readIngestConfig({ SPOT_GATE_API_KEY: "k", SPOT_GATE_API_SECRET: "s" }))).toEqual({ gate: { key: "k", secret: "s" } });
    expect(() => readIngestConfig({ SPOT_BINANCE_API_KEY: "k" })).toThrow(/SPOT_BINANCE_API_KEY and SPOT_BINANCE_API_SECRET/);
    expect(() => readIngestConfig({ SPOT_BYBIT_API_SECRET: "s" })).toThrow(/SPOT_BYBIT_API_KEY and SPOT_BYBIT_API_SECRET/);
  });
});
