import { describe, expect, it } from "vitest";
import { FundingDataClient, FundingDataError, SseParser, verifyWebhook, WebhookVerificationError, type Event } from "@/clients/typescript/src/index";
import { webhookHeaders } from "@/lib/webhooks/webhook-signature";
import { clientTestServerForFile } from "@/tests/support/client-test-server-for-file";
import { STANDARD_WEBHOOKS_VECTOR } from "@/tests/support/webhook-test-vector";
import { startWebhookReceiver } from "@/tests/support/webhook-receiver";

// The TypeScript client's push-delivery helpers: the events iterator and the resuming stream
// consumer against a real server (events written while consuming, connections cut mid-stream),
// the SSE parser on awkward chunks, and the webhook verifier against the Standard Webhooks test
// vector and a delivery the server's own code signed and sent.

const server = clientTestServerForFile();

const client = (apiKey: string, options: ConstructorParameters<typeof FundingDataClient>[0] = {}) =>
  new FundingDataClient({ apiKey, baseUrl: server.baseUrl, retryBaseDelayMs: 10, ...options });

/** The next `count` events of an iterator, failing if it ends first. */
async function take(events: AsyncIterator<Event>, count: number): Promise<string[]> {
  const ids: string[] = [];
  while (ids.length < count) {
    const next = await events.next();
    if (next.done) throw new Error(`the stream ended after ${ids.length} of ${count} events`);
    ids.push(next.value.id);
  }
  return ids;
}

/** Resolves once the server has sent a stream its `: connected` comment. */
function connected(): { onComment: (text: string) => void; done: Promise<void> } {
  let resolve!: () => void;
  const done = new Promise<void>((r) => (resolve = r));
  return { onComment: (text) => text === "connected" && resolve(), done };
}

describe("iterateEvents", () => {
  it("pages through GET /v1/events following has_more, one event at a time, after a given id", async () => {
    const [start] = await server.appendEvents("live", 1);
    const ids = await server.appendEvents("live", 250);
    const seen: Event[] = [];
    for await (const event of client(server.keys.desk).iterateEvents({ after: start, limit: 100 })) seen.push(event);
    expect(seen.map((e) => e.id)).toEqual(ids);
    expect(seen[0]).toMatchObject({ type: "venue.stale", mode: "live", data: { exchange: "okx", status: "stale" } });

    const none: Event[] = [];
    for await (const event of client(server.keys.desk).iterateEvents({ after: start, types: ["venue.recovered", "opportunity.opened"] })) none.push(event);
    expect(none).toEqual([]);
    // A test key reads the sandbox's log, which holds none of these.
    const sandbox: string[] = [];
    for await (const event of client(server.keys.test).iterateEvents({ after: start })) sandbox.push(event.id);
    expect(sandbox.filter((id) => ids.includes(id))).toEqual([]);
  });

  it("throws the API's error for a refused query", async () => {
    const failure = await (async () => {
      for await (const event of client(server.keys.desk).iterateEvents({ after: "evt_1" })) return event;
    })().catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(FundingDataError);
    expect(failure).toMatchObject({ code: "VALIDATION_ERROR", status: 400 });
  });
});

describe("streamEvents", () => {
  it("yields events as they are written and resumes after a dropped connection with no gap and no repeat", async () => {
    const first = await server.appendEvents("live", 3);
    const requestsBefore = server.streamRequests.length;
    const reconnects: (string | undefined)[] = [];
    const stream = client(server.keys.desk).streamEvents(
      { after: first[0], types: ["venue.stale"] },
      { onReconnect: ({ lastEventId }) => reconnects.push(lastEventId) },
    );
    const events = stream[Symbol.asyncIterator]();
    // Replayed from the log after `after`, then live.
    expect(await take(events, 2)).toEqual(first.slice(1));
    const second = await server.appendEvents("live", 2);
    expect(await take(events, 1)).toEqual(second.slice(0, 1));

    expect(server.dropStreams()).toBe(1);
    const third = await server.appendEvents("live", 2); // written while the client is cut off
    expect(await take(events, 3)).toEqual([second[1], ...third]);
    const fourth = await server.appendEvents("live", 1);
    expect(await take(events, 1)).toEqual(fourth);

    expect(stream.reconnects).toBeGreaterThanOrEqual(1);
    expect(stream.lastEventId).toBe(fourth[0]);
    const headers = server.streamRequests.slice(requestsBefore);
    expect(headers[0]).toBeNull(); // the first connection asks with ?after=
    // Each reconnect named the last event yielded before it.
    expect(headers.slice(1)).toEqual(reconnects);
    for (const id of reconnects) expect([...first, ...second]).toContain(id);
    await events.return?.(undefined);
  });

  it("passes the filters on: only events about the exchange asked for", async () => {
    const [start] = await server.appendEvents("live", 1);
    const events = client(server.keys.desk).streamEvents({ after: start, exchange: "binance", types: ["venue.stale"] })[Symbol.asyncIterator]();
    const pending = take(events, 1);
    await server.appendEvents("live", 2, "okx");
    const binance = await server.appendEvents("live", 1, "binance");
    expect(await pending).toEqual(binance);
    await events.return?.(undefined);
  });

  it("ends when its signal is aborted, and after the loop is left", async () => {
    const controller = new AbortController();
    const waiting = connected();
    const stream = client(server.keys.desk).streamEvents({}, { signal: controller.signal, onComment: waiting.onComment });
    const events = stream[Symbol.asyncIterator]();
    const pending = events.next();
    await waiting.done;
    controller.abort();
    expect(await pending).toEqual({ done: true, value: undefined });

    const [start] = await server.appendEvents("live", 1);
    await server.appendEvents("live", 3);
    let seen = 0;
    for await (const event of client(server.keys.desk).streamEvents({ after: start })) {
      expect(event.type).toBe("venue.stale");
      if (++seen === 2) break;
    }
    expect(seen).toBe(2);
  });

  it("throws 401 once its key is revoked: the server ends the stream and the reconnect is refused", async () => {
    const key = await server.newRevocableKey();
    const comments: string[] = [];
    const waiting = connected();
    const stream = client(key.secret).streamEvents(
      {},
      {
        onComment: (text) => {
          comments.push(text);
          waiting.onComment(text);
        },
      },
    );
    const pending = stream[Symbol.asyncIterator]()
      .next()
      .catch((e: unknown) => e);
    await waiting.done;
    await key.revoke();
    expect(await pending).toMatchObject({ code: "UNAUTHORIZED", status: 401 });
    expect(comments).toContain("stream closed: the key is no longer valid");
    expect(stream.reconnects).toBe(1);
  });

  it("throws 401 and 403 as FundingDataError without retrying", async () => {
    const requestsBefore = server.streamRequests.length;
    const refused = async (key: string) => {
      try {
        for await (const event of client(key).streamEvents()) return event;
      } catch (error) {
        return error;
      }
    };
    expect(await refused("svc_sk_live_notakeyatallnotakeyatall")).toMatchObject({ code: "UNAUTHORIZED", status: 401 });
    expect(await refused(server.keys.free)).toMatchObject({ code: "FORBIDDEN", status: 403 });
    expect(server.streamRequests.length - requestsBefore).toBe(2);
  });

  it("waits out a 429 per Retry-After a bounded number of times, then throws it", async () => {
    const open = [connected(), connected()];
    const streams = open.map((o) => client(server.keys.pro).streamEvents({}, { onComment: o.onComment }));
    const iterators = streams.map((s) => s[Symbol.asyncIterator]());
    const pending = iterators.map((i) => i.next());
    await Promise.all(open.map((o) => o.done));

    const requestsBefore = server.streamRequests.length;
    const third = client(server.keys.pro, { maxRetries: 1 }).streamEvents();
    const error = await third[Symbol.asyncIterator]()
      .next()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(FundingDataError);
    expect(error).toMatchObject({ code: "RATE_LIMITED", status: 429, retryAfter: 1 });
    expect(server.streamRequests.length - requestsBefore).toBe(2); // the first try and one retry

    for (const stream of streams) stream.close();
    expect(await Promise.all(pending)).toEqual([
      { done: true, value: undefined },
      { done: true, value: undefined },
    ]);
  });
});

describe("SseParser", () => {
  it("reads messages, comments and retry from chunks cut anywhere, with any line ending", () => {
    const text = "retry: 3000\r\n: connected\r\n\r\nid: evt_1\nevent: venue.stale\ndata: {\"a\":\ndata: 1}\n\n: heartbeat\r\rdata:x\n\n";
    const whole = new SseParser().push(text);
    expect(whole).toEqual([
      { kind: "retry", ms: 3000 },
      { kind: "comment", text: "connected" },
      { kind: "message", message: { id: "evt_1", event: "venue.stale", data: '{"a":\n1}' } },
      { kind: "comment", text: "heartbeat" },
      { kind: "message", message: { event: "message", data: "x" } },
    ]);
    for (let size = 1; size <= 7; size++) {
      const parser = new SseParser();
      const items = [];
      for (let at = 0; at < text.length; at += size) items.push(...parser.push(text.slice(at, at + size)));
      expect(items, `chunks of ${size}`).toEqual(whole);
    }
  });

  it("sends nothing for a message without data, and holds an unfinished one", () => {
    const parser = new SseParser();
    expect(parser.push("event: x\n\nid: 1\ndata: y")).toEqual([]);
    expect(parser.push("\n")).toEqual([]);
    expect(parser.push("\n")).toEqual([{ kind: "message", message: { id: "1", event: "message", data: "y" } }]);
  });
});

const VECTOR = STANDARD_WEBHOOKS_VECTOR;
const vectorHeaders = (signature = VECTOR.signature, timestamp = VECTOR.timestamp) => ({
  "webhook-id": VECTOR.id,
  "webhook-timestamp": String(timestamp),
  "webhook-signature": signature,
});
const at = (seconds: number) => ({ now: () => seconds * 1000 });

async function refusal(promise: Promise<unknown>): Promise<string> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(WebhookVerificationError);
  return (error as WebhookVerificationError).reason;
}

describe("verifyWebhook", () => {
  it("accepts the Standard Webhooks test vector and returns the parsed body", async () => {
    expect(await verifyWebhook(VECTOR.body, vectorHeaders(), VECTOR.secret, at(VECTOR.timestamp))).toEqual({ test: 2432232314 });
    expect(await verifyWebhook(new TextEncoder().encode(VECTOR.body), new Headers(vectorHeaders()), VECTOR.secret, at(VECTOR.timestamp))).toEqual({
      test: 2432232314,
    });
    // Any one of several signatures; other schemes and garbage beside it are ignored.
    const several = `v1,${"A".repeat(43)}= v1a,abc nonsense ${VECTOR.signature}`;
    expect(await verifyWebhook(VECTOR.body, vectorHeaders(several), VECTOR.secret, at(VECTOR.timestamp))).toEqual({ test: 2432232314 });
    // Several secrets (a roll's overlap): any one may match.
    expect(await verifyWebhook(VECTOR.body, vectorHeaders(), ["whsec_" + btoa("other"), VECTOR.secret], at(VECTOR.timestamp))).toEqual({ test: 2432232314 });
  });

  it("refuses a changed body, id or signature, another secret, and missing headers", async () => {
    const now = at(VECTOR.timestamp);
    expect(await refusal(verifyWebhook('{"test": 2432232315}', vectorHeaders(), VECTOR.secret, now))).toBe("NO_MATCHING_SIGNATURE");
    expect(await refusal(verifyWebhook(VECTOR.body, { ...vectorHeaders(), "webhook-id": "msg_other" }, VECTOR.secret, now))).toBe("NO_MATCHING_SIGNATURE");
    expect(await refusal(verifyWebhook(VECTOR.body, vectorHeaders(VECTOR.signature.replace("g0h", "g0i")), VECTOR.secret, now))).toBe(
      "NO_MATCHING_SIGNATURE",
    );
    expect(await refusal(verifyWebhook(VECTOR.body, vectorHeaders(VECTOR.signature.replace("v1,", "v2,")), VECTOR.secret, now))).toBe(
      "NO_MATCHING_SIGNATURE",
    );
    expect(await refusal(verifyWebhook(VECTOR.body, vectorHeaders(), "whsec_" + btoa("another key"), now))).toBe("NO_MATCHING_SIGNATURE");
    expect(await refusal(verifyWebhook(VECTOR.body, { "webhook-id": VECTOR.id }, VECTOR.secret, now))).toBe("MISSING_HEADERS");
    expect(await refusal(verifyWebhook(VECTOR.body, vectorHeaders(VECTOR.signature, Number.NaN), VECTOR.secret, now))).toBe("INVALID_TIMESTAMP");
  });

  it("refuses a timestamp outside the tolerance (5 minutes unless told), either way", async () => {
    const t = VECTOR.timestamp;
    expect(await verifyWebhook(VECTOR.body, vectorHeaders(), VECTOR.secret, at(t + 300))).toEqual({ test: 2432232314 });
    expect(await refusal(verifyWebhook(VECTOR.body, vectorHeaders(), VECTOR.secret, at(t + 301)))).toBe("TIMESTAMP_TOO_OLD");
    expect(await refusal(verifyWebhook(VECTOR.body, vectorHeaders(), VECTOR.secret, at(t - 301)))).toBe("TIMESTAMP_TOO_NEW");
    expect(await verifyWebhook(VECTOR.body, vectorHeaders(), VECTOR.secret, { ...at(t + 3600), toleranceSeconds: 3600 })).toEqual({ test: 2432232314 });
    // Without a clock of its own, the vector (from 2021) is long past.
    expect(await refusal(verifyWebhook(VECTOR.body, vectorHeaders(), VECTOR.secret))).toBe("TIMESTAMP_TOO_OLD");
  });

  it("verifies what the server's signing code produced, with both secrets of a roll", async () => {
    const [id] = await server.appendEvents("live", 1);
    let event: Event | undefined;
    for await (const e of client(server.keys.desk).iterateEvents({ after: `evt_${(BigInt(id!.slice(4)) - 1n).toString().padStart(16, "0")}` })) {
      event = e;
      break;
    }
    const body = JSON.stringify(event);
    const [older, newer] = ["whsec_" + btoa("a".repeat(32)), "whsec_" + btoa("b".repeat(32))];
    const headers = webhookHeaders([newer!, older!], "msg_delivery1", Math.floor(Date.now() / 1000), body);
    expect(await verifyWebhook(body, headers, older!)).toEqual(event);
    expect(await verifyWebhook(body, headers, newer!)).toEqual(event);
  });

  it("verifies a real delivery: an endpoint made through the client, its test event POSTed by the server", async () => {
    const receiver = await startWebhookReceiver();
    try {
      const api = client(server.keys.desk);
      const endpoint = await api.createWebhookEndpoint({ url: `${receiver.url}/hooks`, event_types: ["venue.stale"] });
      const secret = endpoint.data.secret;
      await api.sendWebhookTestEvent(endpoint.data.id, {});
      await receiver.waitFor(1);
      const request = receiver.received[0]!;
      const event = await verifyWebhook(request.body, request.headers, secret);
      expect(event).toMatchObject({ type: "venue.stale", mode: "live", test: true, data: { status: "stale" } });
      expect(await refusal(verifyWebhook(request.body + " ", request.headers, secret))).toBe("NO_MATCHING_SIGNATURE");
      await api.deleteWebhookEndpoint(endpoint.data.id);
    } finally {
      await receiver.close();
    }
  });
});
