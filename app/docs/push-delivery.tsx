import Link from "next/link";
import { readEventsConfig } from "@/lib/config/events-config";
import { configuredPlans, perPlan } from "@/lib/plans";
import { EVENT_DATA_SCHEMAS } from "@/lib/events/event-data";
import { EVENT_TYPES, type EventType } from "@/lib/events/event-types";
import { EVENTS_MAX_LIMIT } from "@/lib/events/event-query";
import { DISABLE_AFTER_FAILING_MS } from "@/lib/webhooks/deliver-webhook";
import { RETRY_DELAYS_MS, RETRY_WINDOW_MS } from "@/lib/webhooks/retry-schedule";
import { ROLL_OVERLAP_MAX_HOURS } from "@/lib/webhooks/webhook-schema";
import { ScrollRegion } from "@/app/components/scroll-region";
import { CodeTable } from "./code-table";

/** What each event type means; its `data` fields are read from its schema, so they cannot drift. */
const MEANINGS: Partial<Record<EventType, string>> = {
  "opportunity.opened": "An opportunity entered the published set. `opportunity` is the item as GET /v1/opportunities served it.",
  "opportunity.updated":
    "An opportunity's net APR moved by at least the service's threshold since the previous set; `previous_net_apr` is where it was.",
  "opportunity.closed": "An opportunity left the set: its id, symbol, legs and the APRs it last paid.",
  "carry_opportunity.opened":
    "A carry opportunity (spot against a perpetual) entered the published carry set. `opportunity` is the item as GET /v1/carry-opportunities served it.",
  "carry_opportunity.updated": "A carry opportunity's net APR moved by at least the service's threshold since the previous carry set.",
  "carry_opportunity.closed": "A carry opportunity left the carry set: its id, type, spot and perpetual markets and the APRs it last paid.",
  "funding_interval.changed": "A market's funding interval changed; `change` as GET /v1/funding-intervals lists it.",
  "venue.stale": "A venue's refresh failed: its data is getting old. `error` says why.",
  "venue.recovered": "A stale venue refreshed successfully again.",
};

/** Text with `code` spans, as the meanings above are written. */
function withCode(text: string) {
  return text.split("`").map((part, i) => (i % 2 === 1 ? <code key={i}>{part}</code> : part));
}

function duration(ms: number): string {
  if (ms % 86_400_000 === 0) return `${ms / 86_400_000} d`;
  if (ms % 3_600_000 === 0) return `${ms / 3_600_000} h`;
  if (ms % 60_000 === 0) return `${ms / 60_000} min`;
  return `${ms / 1000} s`;
}

/** The /docs section on push delivery: the event log, the stream, webhooks, and the clients' helpers for each. */
export function PushDeliverySection({ base }: { base: string }) {
  const config = readEventsConfig();
  const retentionDays = config.EVENTS_RETENTION_DAYS;
  // The stream counts this server enforces (STREAM_MAX_PRO and STREAM_MAX_DESK replace the table's).
  const plans = configuredPlans();
  const streams = perPlan("api", (plan) => plans(plan.id).streams);
  return (
    <>
      <h2 id="push">Push delivery: events, the stream and webhooks</h2>
      <p>
        Every change the service publishes is written as an <strong>event</strong> to an append-only log: each ingestion round
        for live keys, each sandbox tick (every {duration(config.SANDBOX_TICK_MS)}) for test keys, so a test key sees events
        flow without touching an exchange. Events are kept {retentionDays} days and reach you three ways, all reading the same
        log: <code>GET /v1/events</code> pages through it, <code>GET /v1/stream</code> sends each one as it is written, and
        webhooks POST them to your endpoints. A key sees its own mode&apos;s events only. Every event is{" "}
        <code>{`{"id", "type", "mode", "created_at", "data"}`}</code>; <code>id</code> (<code>evt_</code> and 16 digits)
        sorts in the order events were written, so the last one you processed is all you need to resume.
      </p>
      <ScrollRegion label="Event types">
        <table aria-label="Event types">
          <thead>
            <tr>
              <th>Type</th>
              <th>
                <code>data</code>
              </th>
              <th>When</th>
            </tr>
          </thead>
          <tbody>
            {EVENT_TYPES.map((type) => (
              <tr key={type}>
                <td className="nowrap">
                  <code>{type}</code>
                </td>
                <td>
                  {Object.keys(EVENT_DATA_SCHEMAS[type].shape).map((field, i) => (
                    <span key={field}>
                      {i > 0 && ", "}
                      <code>{field}</code>
                    </span>
                  ))}
                </td>
                <td>{withCode(MEANINGS[type] ?? "")}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </ScrollRegion>

      <h3 id="events-api">The events API</h3>
      <p>
        <code>GET /v1/events</code> answers the events after <code>after</code> (an event id; without it, the oldest kept),
        oldest first, <code>limit</code> at a time (default 100, at most {EVENTS_MAX_LIMIT}), optionally only some{" "}
        <code>types</code> (comma-separated), with <code>has_more</code>: ask again with <code>after</code> set to the last
        id while it is true. An <code>after</code> older than {retentionDays} days is a <code>400</code>: the events after it are
        gone. This is the way to catch up after downtime, or to poll instead of holding a connection.
      </p>
      <pre>
        <code>{`curl -sS "${base}/v1/events?limit=3&types=venue.stale,venue.recovered" -H "Authorization: Bearer $FUNDING_DATA_API_KEY"
# {"data": {"items": [{"id": "evt_0000000000000412", "type": "venue.stale", "mode": "test",
#   "created_at": "2026-11-24T10:02:00.118Z", "data": {"exchange": "gate", "status": "stale", …}}, …],
#   "has_more": true}, "meta": {"mode": "test", …}}`}</code>
      </pre>
      <p>The clients iterate it for you, event by event, fetching each page when it is reached. TypeScript:</p>
      <pre>
        <code>{`import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { FundingDataClient } from "@funding-data/client";

const api = new FundingDataClient({ apiKey: process.env.FUNDING_DATA_API_KEY, baseUrl: "${base}" });
// Resume after the last event processed last time (none the first time: the oldest kept).
const cursorFile = "last-event-id.txt";
const after = existsSync(cursorFile) ? readFileSync(cursorFile, "utf8").trim() : undefined;
for await (const event of api.iterateEvents({ after, types: ["opportunity.opened", "opportunity.closed"] })) {
  console.log(event.created_at, event.type, event.id);
  writeFileSync(cursorFile, event.id);
}`}</code>
      </pre>
      <p>Python:</p>
      <pre>
        <code>{`import os
from funding_data import FundingDataClient

api = FundingDataClient(os.environ["FUNDING_DATA_API_KEY"], "${base}")
cursor_file = "last-event-id.txt"
after = open(cursor_file).read().strip() if os.path.exists(cursor_file) else None
for event in api.iter_events(after=after, types=["opportunity.opened", "opportunity.closed"]):
    print(event["created_at"], event["type"], event["id"])
    with open(cursor_file, "w") as f:
        f.write(event["id"])`}</code>
      </pre>

      <h3 id="stream">The live stream</h3>
      <p>
        <code>GET /v1/stream</code> is one long-lived <code>text/event-stream</code> response (Server-Sent Events). Each event
        is a frame: <code>id:</code> the event&apos;s id, <code>event:</code> its type, <code>data:</code> the whole event as
        JSON. It opens with <code>retry: 3000</code> and a <code>: connected</code> comment, and sends a{" "}
        <code>: heartbeat</code> comment every {duration(config.STREAM_HEARTBEAT_MS)} while nothing else is sent; a client that
        hears nothing for several heartbeats should reconnect.
      </p>
      <ul>
        <li>
          <strong>Filters.</strong> Those of <code>GET /v1/opportunities</code>: <code>exchange</code>,{" "}
          <code>exchanges</code>, <code>min_apr</code> and <code>symbol</code> apply to the events they concern (an event
          type a filter says nothing about passes it), and <code>types</code> keeps only the types listed.
        </li>
        <li>
          <strong>Browsers.</strong> An <code>EventSource</code> cannot send the <code>Authorization</code> header, so a
          browser cannot open the stream with a key. Mint a short-lived token on your server with{" "}
          <code>POST /v1/stream-tokens</code> (optional filters as above, <code>ttl_seconds</code> up to 5 minutes) and open{" "}
          <code>new EventSource(&quot;/v1/stream?token=…&quot;)</code> in the page: the token opens that stream, with its
          filters, and nothing else; it stops working when it expires or its key is revoked. The key never reaches the
          browser.
        </li>
        <li>
          <strong>Resuming.</strong> Reconnect with the <code>Last-Event-ID</code> header (a browser&apos;s{" "}
          <code>EventSource</code> sends it by itself; it wins over <code>?after=</code>): what was written meanwhile is sent
          first, then the stream goes on live, with no gap and no event twice while the id is within {retentionDays} days.
          Without either, the stream starts with the next event written.
        </li>
        <li>
          <strong>Limits.</strong> Opening a stream is one request against the key&apos;s rate limit. An account may hold this many
          streams open at once: {streams}; one more is{" "}
          <code>429 RATE_LIMITED</code> with <code>Retry-After</code>. Errors before the stream starts are the usual envelope.
        </li>
        <li>
          <strong>Ending.</strong> The server ends the stream (a comment, then the end of the body) when the key is revoked,
          expires or loses its permission, and when the client stops reading; reconnecting then answers{" "}
          <code>401</code>/<code>403</code>, or resumes.
        </li>
      </ul>
      <pre>
        <code>{`curl -N -s "${base}/v1/stream?types=opportunity.opened,opportunity.closed&min_apr=20" \\
  -H "Authorization: Bearer $FUNDING_DATA_API_KEY" -H "Last-Event-ID: evt_0000000000000412"
# retry: 3000
# : connected
#
# id: evt_0000000000000413
# event: opportunity.opened
# data: {"id":"evt_0000000000000413","type":"opportunity.opened","mode":"test","created_at":"…","data":{"opportunity":{…}}}
#
# : heartbeat`}</code>
      </pre>
      <p>
        The clients consume it for you: they parse the frames, yield each event, and after a dropped connection (a network
        failure, a restart, or 45 s without even a heartbeat) reconnect with backoff, sending <code>Last-Event-ID</code> of the
        last event they yielded, so nothing is missed or repeated. <code>401</code>, <code>403</code> and <code>400</code> are
        raised as the client&apos;s error at once; a <code>429</code> is waited out per <code>Retry-After</code> up to{" "}
        <code>maxRetries</code> times in a row, then raised. Pass <code>after</code> to start from a stored id. TypeScript (Node
        20+, on <code>fetch</code>):
      </p>
      <pre>
        <code>{`import { FundingDataClient, FundingDataError } from "@funding-data/client";

const api = new FundingDataClient({ apiKey: process.env.FUNDING_DATA_API_KEY, baseUrl: "${base}" });
const controller = new AbortController();
process.once("SIGINT", () => controller.abort()); // Ctrl-C ends the loop cleanly

const stream = api.streamEvents(
  { min_apr: 20, types: ["opportunity.opened", "opportunity.closed"] },
  { signal: controller.signal, onReconnect: ({ lastEventId }) => console.error("reconnecting after", lastEventId) },
);
try {
  for await (const event of stream) {
    console.log(event.type, event.id, JSON.stringify(event.data).slice(0, 120));
  }
} catch (e) {
  if (e instanceof FundingDataError) console.error(e.code, e.status); // e.g. UNAUTHORIZED once the key is revoked
  else throw e;
}`}</code>
      </pre>
      <p>Python (standard library only; <code>close()</code> may be called from another thread):</p>
      <pre>
        <code>{`import os
from funding_data import FundingDataClient, FundingDataError

api = FundingDataClient(os.environ["FUNDING_DATA_API_KEY"], "${base}")
try:
    with api.stream_events(min_apr=20, types=["opportunity.opened", "opportunity.closed"]) as stream:
        for event in stream:
            print(event["type"], event["id"])
except KeyboardInterrupt:
    pass
except FundingDataError as e:
    print(e.code, e.status)  # e.g. UNAUTHORIZED once the key is revoked`}</code>
      </pre>

      <h3 id="webhooks">Webhooks</h3>
      <p>
        Add an endpoint under <Link href="/account/webhooks">Account → Webhooks</Link>, or with{" "}
        <code>POST /v1/webhook-endpoints</code> (a Desk key with <code>write</code>, a Pro key with{" "}
        <code>opportunities:read</code>, live or test): an <code>https://</code> URL, the event
        types it wants and a description. Endpoints per mode: {perPlan("webhooks", (plan) => plan.webhookEndpoints)};
        live keys and live endpoints get live events, test ones the sandbox&apos;s. The answer carries the signing secret (
        <code>whsec_…</code>) once: store it. Each event is one <code>POST</code> whose body is the event as{" "}
        <code>GET /v1/events</code> lists it, with the <a href="https://www.standardwebhooks.com/">Standard Webhooks</a>{" "}
        headers:
      </p>
      <CodeTable
        label="Webhook headers"
        rows={[
          [
            "webhook-id",
            <>
              The delivery&apos;s id, the same on every retry of it: process each id once.
            </>,
          ],
          ["webhook-timestamp", "When this attempt was signed, in Unix seconds."],
          [
            "webhook-signature",
            <>
              <code>v1,</code> and the base64 HMAC-SHA256 of <code>{"<webhook-id>.<webhook-timestamp>.<body>"}</code>, keyed with
              the base64-decoded part of the secret after <code>whsec_</code>. While a rolled secret&apos;s overlap lasts (up to{" "}
              {ROLL_OVERLAP_MAX_HOURS} h), two signatures, space-separated: one per secret.
            </>,
          ],
        ]}
      />
      <p>
        Answer with a 2xx within 10 s (do slow work afterwards); redirects are not followed. Anything else is retried{" "}
        {RETRY_DELAYS_MS.map(duration).join(", ")} later (±10 %), for at most {duration(RETRY_WINDOW_MS)}. Every attempt is
        recorded with its status, latency and the first bytes of your answer in the endpoint&apos;s delivery log, where a
        delivery can be sent again by hand; an endpoint whose deliveries have failed for {duration(DISABLE_AFTER_FAILING_MS)}{" "}
        is disabled (enable it again once it is fixed, then <code>POST /v1/webhook-endpoints/{"{id}"}/replay</code> with a{" "}
        <code>since</code> queues what it failed or missed). <em>Send test event</em>, or{" "}
        <code>POST /v1/webhook-endpoints/{"{id}"}/test</code> with an optional <code>type</code>, sends one event of that
        type&apos;s real shape marked <code>{`"test": true`}</code>, once, never retried.
      </p>
      <p>
        <strong>Verify every request</strong> before trusting it: recompute the signature over the body exactly as received
        (not parsed and serialised again), compare it in constant time with each <code>v1,</code> signature of the header, and
        refuse a timestamp more than 5 minutes from now, so a captured request cannot be replayed. The clients do all of this
        and return the event, or throw/raise an error whose <code>reason</code> says what failed. TypeScript (any Node
        server; <code>Headers</code> or a plain object work too):
      </p>
      <pre>
        <code>{`import http from "node:http";
import { verifyWebhook, WebhookVerificationError } from "@funding-data/client";

const secret = process.env.WEBHOOK_SECRET!; // whsec_…, shown once when the endpoint was created
http
  .createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk);
    try {
      const event = await verifyWebhook(Buffer.concat(chunks), req.headers, secret);
      console.log(req.headers["webhook-id"], event.type, event.id);
      res.writeHead(204).end();
    } catch (e) {
      if (!(e instanceof WebhookVerificationError)) throw e;
      res.writeHead(400).end(e.reason); // NO_MATCHING_SIGNATURE, TIMESTAMP_TOO_OLD, …
    }
  })
  .listen(8080);`}</code>
      </pre>
      <p>Python (here with the standard library&apos;s server; Flask&apos;s <code>request.get_data()</code> and{" "}
        <code>request.headers</code> work the same way):</p>
      <pre>
        <code>{`import os
from http.server import BaseHTTPRequestHandler, HTTPServer
from funding_data import WebhookVerificationError, verify_webhook

SECRET = os.environ["WEBHOOK_SECRET"]  # whsec_..., shown once when the endpoint was created

class Hooks(BaseHTTPRequestHandler):
    def do_POST(self):
        body = self.rfile.read(int(self.headers["Content-Length"]))
        try:
            event = verify_webhook(body, self.headers, SECRET)
        except WebhookVerificationError as e:
            self.send_response(400)
            self.end_headers()
            self.wfile.write(e.reason.encode())
            return
        print(self.headers["webhook-id"], event["type"], event["id"])
        self.send_response(204)
        self.end_headers()

HTTPServer(("", 8080), Hooks).serve_forever()`}</code>
      </pre>
      <p>
        Both accept several secrets (a list) for a roll&apos;s overlap, and a different tolerance (
        <code>toleranceSeconds</code>, <code>tolerance</code>). Any Standard Webhooks library verifies these requests too.
      </p>
    </>
  );
}
