import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { EVENT_TYPES, eventId } from "@/lib/events/event-types";
import { VENUE_IDS } from "@/lib/market/model/types";
import type { Db } from "@/lib/db";
import { appendEventStatements, eventsAppended } from "@/lib/events/append-events";
import { appendEventsQuietly } from "@/tests/support/append-events-quietly";
import type { NewEvent } from "@/lib/events/event-data";
import type { KeyMode } from "@/lib/keys/mode";
import { revokeKey, setKeyAllowlist } from "@/lib/keys/account-keys";
import { mintStreamToken, streamTokenKey } from "@/lib/events/stream-token";
import { apiServerForFile } from "@/tests/support/api-server-for-file";
import { expectEnvelope } from "./helpers/api-envelope";
import { createKeyFor, createUser } from "@/tests/support/api-fixtures";
import { dbServices, signedIn } from "@/tests/support/api-fixtures";

// Short heartbeats and polls so a test sees them; the defaults are 15 s and 500 ms.
const api = apiServerForFile({ STREAM_HEARTBEAT_MS: "100", STREAM_POLL_MS: "20", STREAM_KEY_CHECK_MS: "100", STREAM_MAX_PRO: "2" });
let db: Db;

beforeAll(() => {
  db = api.db;
});

let counter = 0;
const venueEvent = (exchange = "okx"): NewEvent => ({
  type: "venue.stale",
  data: { exchange, status: "stale", last_success_at: null, error: `failure ${++counter}` },
});
const intervalEvent = (): NewEvent => ({
  type: "funding_interval.changed",
  data: {
    change: {
      exchange: "binance",
      market: "BTC/USDT:USDT",
      symbol: "BTC",
      effective_at: "2026-11-20T08:00:00.000Z",
      from_hours: 8,
      to_hours: 4,
      source: "venue",
      detected_at: "2026-11-20T08:38:00.000Z",
    },
  },
});

/** Appends events and wakes this process's feed, as a round or tick does once it committed. */
async function append(mode: KeyMode, events: NewEvent[]): Promise<string[]> {
  const before = await db.marketEvent.findFirst({ orderBy: { sequence: "desc" } });
  await db.$transaction(appendEventStatements(db, mode, events));
  eventsAppended().notify();
  const rows = await db.marketEvent.findMany({ where: { sequence: { gt: before?.sequence ?? 0n } }, orderBy: { sequence: "asc" } });
  return rows.map((r) => `evt_${r.sequence.toString().padStart(16, "0")}`);
}

interface Frame {
  id?: string;
  event?: string;
  data?: string;
  comment?: string;
  retry?: string;
}

/** Reads Server-Sent Events frames off a response body. */
class SseReader {
  private readonly reader: ReadableStreamDefaultReader<Uint8Array>;
  private readonly decoder = new TextDecoder();
  private buffer = "";
  ended = false;

  constructor(readonly response: Response) {
    this.reader = response.body!.getReader();
  }

  /** The next frame; undefined once the stream ended. */
  async next(): Promise<Frame | undefined> {
    for (;;) {
      const at = this.buffer.indexOf("\n\n");
      if (at >= 0) {
        const text = this.buffer.slice(0, at);
        this.buffer = this.buffer.slice(at + 2);
        const frame: Frame = {};
        for (const line of text.split("\n")) {
          if (line.startsWith(":")) frame.comment = line.slice(1).trim();
          else {
            const [name, ...rest] = line.split(": ");
            (frame as Record<string, string>)[name!] = rest.join(": ");
          }
        }
        return frame;
      }
      const { done, value } = await this.reader.read();
      if (done) {
        this.ended = true;
        return undefined;
      }
      this.buffer += this.decoder.decode(value, { stream: true });
    }
  }

  /** The next `count` events, skipping comments (heartbeats). */
  async events(count: number): Promise<Frame[]> {
    const events: Frame[] = [];
    while (events.length < count) {
      const frame = await this.next();
      if (!frame) throw new Error(`the stream ended after ${events.length} of ${count} events`);
      if (frame.id) events.push(frame);
    }
    return events;
  }

  /** Reads until a frame matches; the frames before it. */
  async until(match: (frame: Frame) => boolean): Promise<Frame[]> {
    const seen: Frame[] = [];
    for (;;) {
      const frame = await this.next();
      if (!frame) throw new Error("the stream ended first");
      if (match(frame)) return seen;
      seen.push(frame);
    }
  }

  /** Hangs up without waiting for the server. */
  async hangUp() {
    await this.reader.cancel().catch(() => undefined);
  }

  /** Hangs up, and waits until the server has let the stream go (its feed subscription closed). */
  async close() {
    const open = api.services.eventFeed.subscribers;
    await this.reader.cancel().catch(() => undefined);
    while (api.services.eventFeed.subscribers >= open) await new Promise((r) => setTimeout(r, 5));
  }
}

type Mount = "node" | "app";

async function open(key: string, query = "", headers: Record<string, string> = {}, mount: Mount = "node"): Promise<Response> {
  const init = { headers: { Authorization: `Bearer ${key}`, ...headers } };
  if (mount === "node") return fetch(`${api.baseUrl}/v1/stream${query}`, init);
  const request = new Request(`http://localhost/v1/stream${query}`, init);
  return api.app.fetch(request);
}

async function connect(key: string, query = "", headers: Record<string, string> = {}, mount: Mount = "node"): Promise<SseReader> {
  const response = await open(key, query, headers, mount);
  expect(response.status, await (response.status === 200 ? "" : response.clone().text())).toBe(200);
  expect(response.headers.get("content-type")).toBe("text/event-stream; charset=utf-8");
  expect(response.headers.get("x-request-id")).toMatch(/^req_/);
  expect(response.headers.get("x-ratelimit-limit")).not.toBeNull();
  const reader = new SseReader(response);
  // The preamble: the reconnection delay and a comment, sent at once so the headers go out.
  expect(await reader.next()).toEqual({ retry: "3000", comment: "connected" });
  return reader;
}

/** Waits until the process's feed has a subscriber more than `before`: the stream is live. */
async function live(before: number) {
  while (api.services.eventFeed.subscribers <= before) await new Promise((r) => setTimeout(r, 5));
}

describe.each<Mount>(["node"])("GET /v1/stream through the %s mount", (mount) => {
  let user: { id: string };
  let liveKey: string;
  let testKey: string;
  beforeAll(async () => {
    user = await createUser(db, "desk");
    liveKey = (await createKeyFor(db, user.id)).secret;
    testKey = (await createKeyFor(db, user.id, { mode: "test" })).secret;
  });

  it("sends the key's mode's events as they are written, each with its id, type and the public event", async () => {
    const stream = await connect(testKey, "", {}, mount);
    await live(0);
    await append("live", [venueEvent()]);
    const ids = await append("test", [venueEvent("gate"), intervalEvent()]);
    const frames = await stream.events(2);
    expect(frames.map((f) => f.id)).toEqual(ids);
    expect(frames.map((f) => f.event)).toEqual(["venue.stale", "funding_interval.changed"]);
    const first = JSON.parse(frames[0]!.data!);
    expect(first).toMatchObject({ id: ids[0], type: "venue.stale", mode: "test", data: { exchange: "gate" } });
    await stream.close();
  });

  it("delivers events another process wrote, by reading the log, with no wake-up from the writer", async () => {
    const stream = await connect(testKey, "", {}, mount);
    await live(0);
    // Appended as a worker or another server would: nothing in this process is told.
    await db.$transaction(appendEventStatements(db, "test", [venueEvent("bybit")]));
    const [frame] = await stream.events(1);
    expect(JSON.parse(frame!.data!)).toMatchObject({ type: "venue.stale", mode: "test", data: { exchange: "bybit" } });
    await stream.close();
  });

  it("keeps a reading client's stream open through a burst of events larger than a client may leave unsent", async () => {
    const stream = await open(testKey, "", {}, mount);
    const reader = stream.body!.getReader();
    const decoder = new TextDecoder();
    /** Reads on until `id`'s frame has come (the frames before it counted), keeping only a tail of the text. */
    const readThrough = async (id: string) => {
      let [tail, frames] = ["", 0];
      for (;;) {
        const { done, value } = await reader.read();
        if (done) throw new Error(`the stream ended after ${frames} frames`);
        const text = tail + decoder.decode(value, { stream: true });
        frames += text.split("\nid: ").length - 1;
        if (text.includes(`id: ${id}\n`)) return frames;
        tail = text.slice(-64);
      }
    };
    await live(0);
    const note = "x".repeat(1_000);
    const events = (n: number) => Array.from({ length: n }, (_, i): NewEvent => ({ type: "venue.stale", data: { exchange: "okx", status: "stale", last_success_at: null, error: `${i} ${note}` } }));
    // A batch's events, and right behind them a round's: 5,000 events of about a kilobyte in one
    // chunk, more than the 4 MB a stream may hold unsent, queued while the batch's are being sent.
    const batch = await appendEventsQuietly(db, "test", events(300));
    const round = await appendEventsQuietly(db, "test", events(5_000));
    eventsAppended().notify(batch);
    eventsAppended().notify(round);
    expect(await readThrough(eventId(round.range.last))).toBeGreaterThanOrEqual(5_300);
    // Still open: the next event comes too.
    const [next] = await append("test", [venueEvent("gate")]);
    await readThrough(next!);
    await reader.cancel();
  });

  it("applies the filters and types", async () => {
    const stream = await connect(liveKey, "?types=venue.stale&exchange=binance", {}, mount);
    await live(0);
    const ids = await append("live", [venueEvent("okx"), intervalEvent(), venueEvent("binance")]);
    const [frame] = await stream.events(1);
    expect(frame!.id).toBe(ids[2]);
    await stream.close();
  });

  it("resumes from Last-Event-ID with no gap and no repeat, then goes on live", async () => {
    const first = await connect(testKey, "", {}, mount);
    await live(0);
    const written = await append("test", [venueEvent(), venueEvent(), venueEvent()]);
    const seen = await first.events(2);
    await first.close();
    // Written while the client was away, then after it came back.
    const missed = await append("test", [venueEvent(), venueEvent()]);
    const again = await connect(testKey, "", { "Last-Event-ID": seen[1]!.id! }, mount);
    const replayed = await again.events(3);
    expect(replayed.map((f) => f.id)).toEqual([written[2], ...missed]);
    await live(0);
    const later = await append("test", [venueEvent()]);
    expect((await again.events(1)).map((f) => f.id)).toEqual(later);
    await again.close();
    // ?after= resumes the same way.
    const viaQuery = await connect(testKey, `?after=${written[0]}`, {}, mount);
    expect((await viaQuery.events(5)).map((f) => f.id)).toEqual([written[1], written[2], ...missed, ...later]);
    await viaQuery.close();
  });

  it("sends heartbeats while nothing happens", async () => {
    const stream = await connect(liveKey, "?types=opportunity.closed", {}, mount);
    const beforeBeat = await stream.until((f) => f.comment === "heartbeat");
    expect(beforeBeat).toEqual([]);
    await stream.close();
  });

  it("refuses a bad, out-of-retention or not yet written Last-Event-ID and unknown parameters with 400", async () => {
    const newest = (await db.marketEvent.findFirst({ orderBy: { sequence: "desc" }, select: { sequence: true } }))?.sequence ?? 0n;
    const beyond = eventId(newest + 1_000n);
    for (const [headers, query, field] of [
      [{ "Last-Event-ID": "nope" }, "", "Last-Event-ID"],
      [{ "Last-Event-ID": beyond }, "", "Last-Event-ID"],
      [{}, `?after=${beyond}`, "after"],
      [{}, "?after=evt_12", "after"],
      [{}, "?limit=5", "limit"],
    ] as const) {
      const response = await open(liveKey, query, headers, mount);
      const answer = expectEnvelope(response.status, response.headers, await response.text(), `GET /v1/stream${query}`);
      expect(answer.kind === "error" && answer.error.details?.[0]?.field).toBe(field);
    }
  });
});

describe("GET /v1/stream's limits", () => {
  it("caps concurrent streams per account by tier, with a 429 in the usual envelope", async () => {
    const pro = await createUser(db, "pro");
    const [a, b] = [(await createKeyFor(db, pro.id)).secret, (await createKeyFor(db, pro.id, { mode: "test" })).secret];
    const one = await connect(a);
    const two = await connect(b);
    const refused = await open(a);
    const answer = expectEnvelope(refused.status, refused.headers, await refused.text(), "third stream");
    expect(refused.status).toBe(429);
    expect(answer.kind === "error" && answer.error).toMatchObject({ code: "RATE_LIMITED", retry_after: 1, message: expect.stringMatching(/At most 2 streams/) });
    await one.hangUp();
    // The slot is free once the server noticed the client went.
    while (api.services.streamSlots.held(pro.id) > 1) await new Promise((r) => setTimeout(r, 10));
    const three = await connect(a);
    await two.close();
    await three.close();
  });

  it("refuses a key without opportunities:read with 403", async () => {
    const desk = await createUser(db, "desk");
    const key = (await createKeyFor(db, desk.id, { permissions: ["portfolio:read"] })).secret;
    const response = await open(key);
    expect(response.status).toBe(403);
  });

  it("ends the stream cleanly when its key is revoked, and refuses it afterwards", async () => {
    const desk = await createUser(db, "desk");
    const key = await createKeyFor(db, desk.id);
    const stream = await connect(key.secret);
    await revokeKey(dbServices(db), signedIn(desk), key.id, { ip: null, userAgent: null });
    const rest = await stream.until(() => false).catch((error: Error) => error);
    expect(rest).toBeInstanceOf(Error);
    expect(stream.ended).toBe(true);
    expect((await open(key.secret)).status).toBe(401);
  });

  it("ends the stream when its key's IP allowlist stops admitting the stream's address", async () => {
    const desk = await createUser(db, "desk");
    const key = await createKeyFor(db, desk.id);
    const origin = { ip: null, userAgent: null };
    await setKeyAllowlist(dbServices(db), signedIn(desk), key.id, ["10.0.0.0/8"], origin);
    // This server has no front door in front of it: X-Real-IP stands for the address server.ts would set.
    const stream = await connect(key.secret, "", { "X-Real-IP": "10.0.0.5" });
    // An edit that still admits it leaves the stream open: heartbeats go on after the key is checked again.
    await setKeyAllowlist(dbServices(db), signedIn(desk), key.id, ["10.0.0.0/8", "2001:db8::/32"], origin);
    await new Promise((resolve) => setTimeout(resolve, 300));
    await stream.until((frame) => frame.comment === "heartbeat");
    await setKeyAllowlist(dbServices(db), signedIn(desk), key.id, ["192.0.2.0/24"], origin);
    const closing = await stream.until((frame) => frame.comment?.startsWith("stream closed") ?? false);
    expect(closing.every((frame) => frame.comment === "heartbeat")).toBe(true);
    const rest = await stream.until(() => false).catch((error: Error) => error);
    expect(rest).toBeInstanceOf(Error);
    expect(stream.ended).toBe(true);
    expect((await open(key.secret, "", { "X-Real-IP": "10.0.0.5" })).status).toBe(403);
  });
});

describe("stream tokens, for browsers", () => {
  /** POST /v1/stream-tokens with a key. */
  async function mint(key: string, body?: unknown) {
    const response = await api.app.fetch(
      new Request("http://localhost/v1/stream-tokens", {
        method: "POST",
        headers: { Authorization: `Bearer ${key}`, ...(body !== undefined && { "Content-Type": "application/json" }) },
        ...(body !== undefined && { body: JSON.stringify(body) }),
      }),
    );
    return { status: response.status, body: (await response.json()) as { data: { token: string; url: string; mode: string; expires_at: string } } };
  }
  /** GET as a browser's EventSource sends it: no Authorization header. */
  const openAsBrowser = (url: string, headers: Record<string, string> = {}) => fetch(`${api.baseUrl}${url}`, { headers });

  it("opens the stream without an Authorization header, with the key's mode and the token's filters only", async () => {
    const user = await createUser(db, "pro");
    const key = (await createKeyFor(db, user.id, { mode: "test" })).secret;
    const minted = await mint(key, { types: ["funding_interval.changed"], ttl_seconds: 60 });
    expect(minted.status).toBe(200);
    expect(minted.body.data).toMatchObject({ mode: "test", url: `/v1/stream?token=${minted.body.data.token}` });
    expect(Date.parse(minted.body.data.expires_at) - Date.now()).toBeLessThanOrEqual(60_000);
    const response = await openAsBrowser(minted.body.data.url);
    expect(response.status).toBe(200);
    const stream = new SseReader(response);
    expect(await stream.next()).toEqual({ retry: "3000", comment: "connected" });
    await live(0);
    await append("live", [intervalEvent()]);
    const [, wanted] = await append("test", [venueEvent("gate"), intervalEvent()]);
    expect((await stream.events(1)).map((f) => f.id)).toEqual([wanted]);
    await stream.close();
    // No body at all is a token for the unfiltered stream, valid 5 minutes.
    expect((await mint(key)).status).toBe(200);
  });

  it("grants nothing else: not as a key, not on other routes, not with filters of its own", async () => {
    const user = await createUser(db, "desk");
    const key = (await createKeyFor(db, user.id)).secret;
    const { token } = (await mint(key, { symbol: "BTC" })).body.data;
    const asBearer = await api.app.fetch(new Request("http://localhost/v1/opportunities", { headers: { Authorization: `Bearer ${token}` } }));
    expect(asBearer.status).toBe(401);
    expect((await openAsBrowser(`/v1/events?token=${token}`)).status).toBe(401);
    expect((await openAsBrowser(`/v1/stream?token=${token}&symbol=ETH`)).status).toBe(400);
    expect((await openAsBrowser(`/v1/stream?token=${token}`, { Authorization: `Bearer ${key}` })).status).toBe(400);
    const resumed = await openAsBrowser(`/v1/stream?token=${token}&after=evt_0000000000000001`);
    expect(resumed.status).toBe(200);
    await resumed.body!.cancel();
  });

  it("answers 401 to an expired, altered or foreign token, and once its key is revoked", async () => {
    const user = await createUser(db, "desk");
    const key = await createKeyFor(db, user.id);
    const { token } = (await mint(key.secret)).body.data;
    const expired = mintStreamToken(api.services.streamTokenKey, { key: key.id, user: user.id, mode: "live", filters: {}, exp: Math.floor(Date.now() / 1000) - 1 });
    const answer = await openAsBrowser(`/v1/stream?token=${expired}`);
    expect(answer.status).toBe(401);
    expect(((await answer.json()) as { error: { message: string } }).error.message).toMatch(/expired/);
    expect((await openAsBrowser(`/v1/stream?token=${token.slice(0, -2)}xx`)).status).toBe(401);
    const foreign = mintStreamToken(streamTokenKey({ NEXTAUTH_SECRET: "another deployment" }), { key: key.id, user: user.id, mode: "live", filters: {}, exp: 4e9 });
    expect((await openAsBrowser(`/v1/stream?token=${foreign}`)).status).toBe(401);
    await revokeKey(dbServices(db), signedIn(user), key.id, { ip: null, userAgent: null });
    expect((await openAsBrowser(`/v1/stream?token=${token}`)).status).toBe(401);
  });
});

describe("GET /v1/stream under random queries", () => {
  // The stream's parameters as the fuzzers know the others' (tests/integration/api-fuzz.test.ts): a
  // request with only valid values opens a stream; any invalid one is a 400 naming that parameter.
  const VALUES: Record<string, { valid?: fc.Arbitrary<string>; invalid: fc.Arbitrary<string> }> = {
    exchange: { valid: fc.constantFrom(...VENUE_IDS), invalid: fc.constantFrom("ftx", "OKX", "", "binance,okx") },
    exchanges: {
      valid: fc.uniqueArray(fc.constantFrom(...VENUE_IDS), { minLength: 1, maxLength: 4 }).map((v) => v.join(",")),
      invalid: fc.constantFrom("ftx", "okx,", ",", "okx bybit"),
    },
    min_apr: { valid: fc.integer({ min: -100, max: 1000 }).map(String), invalid: fc.constantFrom("ten", "NaN", "1,5", "Infinity") },
    symbol: { valid: fc.constantFrom("BTC", "eth", "SBXNEG"), invalid: fc.constantFrom("BTC/USDT", "x".repeat(21), "") },
    types: {
      valid: fc.uniqueArray(fc.constantFrom(...EVENT_TYPES), { minLength: 1, maxLength: 3 }).map((v) => v.join(",")),
      invalid: fc.constantFrom("opportunity", "venue.stale,", "OPPORTUNITY.OPENED", "venue.*"),
    },
    after: {
      // Ids the log has reached (the test writes 6 events first); one beyond the newest is refused.
      valid: fc.bigInt({ min: 0n, max: 5n }).map((n) => `evt_${n.toString().padStart(16, "0")}`),
      invalid: fc.constantFrom("evt_1", "12", "evt_00000000000000001", "evt_000000000000000a", "evt_0999999999999999"),
    },
    // Paging is not the stream's: any value is refused, as an unknown parameter.
    limit: { invalid: fc.constantFrom("5", "100") },
  };
  const param = fc.constantFrom(...Object.keys(VALUES)).chain((name) => {
    const { valid, invalid } = VALUES[name]!;
    const refused = invalid.map((value) => ({ name, value, valid: false }));
    return valid ? fc.oneof(valid.map((value) => ({ name, value, valid: true })), refused) : refused;
  });

  it("opens a stream for valid queries and refuses invalid ones with a 400 naming the field", async () => {
    const desk = await createUser(db, "desk");
    const key = (await createKeyFor(db, desk.id)).secret;
    // The valid `after` values name events the log has reached.
    await append("test", Array.from({ length: 6 }, () => venueEvent()));
    await fc.assert(
      fc.asyncProperty(fc.uniqueArray(param, { maxLength: 4, selector: (p) => p.name }), async (params) => {
        const query = params.map((p) => `${encodeURIComponent(p.name)}=${encodeURIComponent(p.value)}`).join("&");
        const response = await open(key, query ? `?${query}` : "", {}, "app");
        if (params.every((p) => p.valid)) {
          expect(response.status, query).toBe(200);
          await response.body!.cancel();
        } else {
          const answer = expectEnvelope(response.status, response.headers, await response.text(), `GET /v1/stream?${query}`);
          expect(response.status, query).toBe(400);
          const fields = answer.kind === "error" ? (answer.error.details ?? []).map((d) => d.field) : [];
          expect(params.filter((p) => !p.valid).map((p) => p.name)).toContain(fields[0]);
        }
      }),
      { numRuns: 60 },
    );
  });
});
