import type { Metadata } from "next";
import { API_ROUTES } from "@/lib/api/app";
import { examplePath } from "@/lib/api/openapi/example-request";
import { buildOpenApiDocument, OPENAPI_PATH } from "@/lib/api/openapi/openapi-document";
import { NOT_MODIFIED_COUNTS, RATE_LIMIT_HEADERS_PRESENCE } from "@/lib/api/openapi/response-headers";
import { FAILED_AUTH_LIMIT } from "@/lib/api/failed-auth-throttle";
import { EXPORT_DEFINITION } from "@/lib/api/export-definition";
import { EXPIRY_WARNING_DAYS } from "@/lib/keys/expiry-warning";
import { addressNotAllowedMessage, MAX_ALLOWLIST_ENTRIES } from "@/lib/keys/ip-allowlist";
import { clientDownloads } from "@/lib/clients/client-archives";
import { BOOK_DEADLINE_MS, BOOK_FRESH_MS } from "@/lib/market/books/live-market-depth";
import { BOOK_LEVELS } from "@/lib/market/books/market-depth";
import { DEFAULT_HOLD_HOURS } from "@/lib/quote/quote-schema";
import { snakeCase } from "@/lib/clients/method-names";
import { publicOrigin } from "@/lib/config/public-url";
import { planNames, planOf, PLANS, plansWith } from "@/lib/plans";
import { DEFAULT_BUCKETS, MAX_SPAN_TEXT, USAGE_RETENTION_DAYS } from "@/lib/usage/usage-range";
import { ApiReference } from "./api-reference";
import { PushDeliverySection } from "./push-delivery";
import styles from "./docs.module.css";
import { CodeTable } from "./code-table";

export const metadata: Metadata = { title: "API documentation · Funding Opportunity Data Service" };

// Rendered per request: the Content-Security-Policy nonce (proxy.ts) is new on every response.
export const dynamic = "force-dynamic";

type ErrorResponses = Record<string, { description: string }>;

export default async function DocsPage() {
  // The configured public address, never the request's Host or X-Forwarded-Host (a client chooses those).
  const base = publicOrigin();
  const document = buildOpenApiDocument(API_ROUTES, base);
  const errors = (document.components as { responses: ErrorResponses }).responses;
  const apiPlans = plansWith("api");
  const free = planOf("free");
  const writers = PLANS.filter((plan) => plan.features.write);
  const downloads = await clientDownloads();
  const typescriptDownload = downloads.find((d) => d.language === "typescript")!;
  const pythonDownload = downloads.find((d) => d.language === "python")!;

  return (
    <div className={styles.guide}>
      <h1>API documentation</h1>
      <p>
        Everything here is generated from the same schemas that validate requests and shape responses. The machine-readable
        form is the OpenAPI 3.1 document at <a href={OPENAPI_PATH}><code>{OPENAPI_PATH}</code></a> (no key needed); the
        reference at the bottom renders it.
      </p>
      <ul className={styles.toc}>
        <li><a href="#quick-start">Quick start</a></li>
        <li><a href="#authentication">Authentication</a></li>
        <li><a href="#test-keys">Test and live keys</a></li>
        <li><a href="#errors">Errors</a></li>
        <li><a href="#rate-limits">Rate limits</a></li>
        <li><a href="#conditional-requests">Compression and conditional requests</a></li>
        <li><a href="#browsers">Calling the API from a browser</a></li>
        <li><a href="#pagination">Pagination</a></li>
        <li><a href="#usage">Usage</a></li>
        <li><a href="#pricing">Pricing a trade</a></li>
        <li><a href="#examples">curl examples</a></li>
        <li><a href="#clients">Clients</a></li>
        <li><a href="#push">Push delivery</a></li>
        <li><a href="#licence">Licence</a></li>
        <li><a href="#reference">Reference</a></li>
      </ul>

      <h2 id="quick-start">Quick start</h2>
      <ol>
        <li>
          Create an API key in the account area under <a href="/account/api-keys">Account → API Keys</a>. Keys need the{" "}
          {planNames(apiPlans, "or")} plan, and a new account starts on {free.name}: switch under <a href="/account/plan">Account → Plan</a> first. The full
          key is shown once; keep it in an environment variable, not in source code. A new key is a test key (
          <code>svc_sk_test_</code>) unless you choose <em>Live</em>: it reads sandbox data, so nothing you do with it
          touches live results; choose Live for production data.
        </li>
        <li>
          Send the header <code>Authorization: Bearer &lt;API_KEY&gt;</code> on every request.
        </li>
        <li>
          Call <code>GET /v1/opportunities</code>:
        </li>
      </ol>
      <pre>
        <code>{`export FUNDING_DATA_API_KEY=svc_sk_test_...   # the key you just created
curl -sS "${base}/v1/opportunities?limit=5" \\
  -H "Authorization: Bearer $FUNDING_DATA_API_KEY"`}</code>
      </pre>
      <p>
        Every path starts with <code>/v1</code> under <code>{base}</code>. Every response is JSON: a success is{" "}
        <code>{`{"data": …, "meta": {"timestamp", "request_id", …}}`}</code>, an error{" "}
        <code>{`{"error": {"code", "message", …}, "meta": {…}}`}</code>. A request that creates something (
        <code>POST /v1/simulations</code>, <code>POST /v1/portfolio/positions</code>) answers <code>201</code> with the new
        resource&apos;s path in the <code>Location</code> header.
      </p>

      <h2 id="authentication">Authentication</h2>
      <p>
        Keys are per account and inherit its plan&apos;s permissions: {planNames(apiPlans)} read opportunities and market data
        (<code>opportunities:read</code>), run and read simulations (<code>simulations:read</code>) and read the portfolio
        (<code>portfolio:read</code>); only {planNames(writers)} changes the portfolio through the API (<code>write</code>). A key can be
        restricted to fewer permissions when it is created. Every POST accepts an <code>Idempotency-Key</code> header: the
        same key with the same request within 24 hours returns the first answer without doing the work twice, and with
        another request is <code>409 IDEMPOTENCY_CONFLICT</code>. A missing header, a
        malformed key, or a revoked or expired key gets <code>401 UNAUTHORIZED</code>; a key whose plan or permissions do not
        cover the endpoint, or whose <a href="#key-controls">IP allowlist</a> leaves out the request&apos;s address, gets{" "}
        <code>403 FORBIDDEN</code>. A {free.name} account&apos;s keys reach only{" "}
        <code>GET /v1/auth/verify</code>, which answers <code>tier: &quot;free&quot;</code>. Use it to check a key:
      </p>
      <pre>
        <code>{`curl -sS "${base}/v1/auth/verify" -H "Authorization: Bearer $FUNDING_DATA_API_KEY"`}</code>
      </pre>
      <p>Revoking a key in the account area takes effect at once and cannot be undone.</p>
      <h3 id="key-controls">Expiry and IP allowlists</h3>
      <p>
        A key can be given an expiry when it is created: never, in 30 or 90 days, or at the end of a chosen day (UTC). From
        then on it is refused with <code>401 UNAUTHORIZED</code>, like a revoked key, and the account area shows it as
        expired; <code>expires_at</code> in <code>GET /v1/auth/verify</code> says when. The account area warns about keys
        that expire within {EXPIRY_WARNING_DAYS} days. Rolling a key gives the replacement the same lifetime.
      </p>
      <p>
        A key can also be limited to the addresses your clients call from: an IP allowlist of up to {MAX_ALLOWLIST_ENTRIES}{" "}
        IPv4 or IPv6 addresses and CIDR ranges (<code>203.0.113.7</code>, <code>10.0.0.0/8</code>,{" "}
        <code>2001:db8::/32</code>), set when the key is created and editable at any time under Account → API Keys; an empty
        list accepts any address. A request from an address outside the list is refused with <code>403 FORBIDDEN</code>{" "}
        and a message naming the address, for example{" "}
        <code>{`{"error": {"code": "FORBIDDEN", "message": "${addressNotAllowedMessage("198.51.100.23")}"}}`}</code>. That
        refusal comes before the rate limit, so it carries no rate-limit headers and does not use the key&apos;s requests; it
        counts towards the address&apos;s limit on failed authentications instead (see <a href="#rate-limits">Rate limits</a>
        ). A change to the list applies to the key&apos;s next request. A bare address stands for that one address; a range
        is written with its network address (<code>10.0.0.0/8</code>; <code>10.0.0.1/8</code> is refused as ambiguous).
        IPv4 clients reached over IPv6 (<code>::ffff:192.0.2.1</code>) match IPv4 entries. Behind a reverse proxy, the
        address is the one the proxy saw, when the proxy is configured as trusted.
      </p>

      <h2 id="test-keys">Test and live keys</h2>
      <p>
        <code>svc_sk_live_</code> keys read live market data. <code>svc_sk_test_</code> keys read a sandbox: deterministic
        generated market data (including a venue that is always stale, to test against) that never mixes with live data. Test
        keys are rate-limited like live ones. <code>meta.mode</code> says which kind answered.
      </p>
      <p>
        Market answers also carry <code>meta.data_as_of</code>, when the data behind them was observed, and{" "}
        <code>meta.sample</code>. <code>sample: true</code> means the service has not completed a live ingestion round yet
        (a fresh install without network access) and is serving the bundled offline sample: real-shaped recordings, not
        current prices. Do not trade on it; it turns <code>false</code> with the first live round.
      </p>

      <h2 id="errors">Errors</h2>
      <p>
        Match on <code>error.code</code>, never on the message. Quote <code>meta.request_id</code> (also the{" "}
        <code>X-Request-Id</code> header) when you report a problem.
      </p>
      <CodeTable
        label="Error codes"
        columns={["Status and code", "When"]}
        nowrap
        rows={Object.values(errors).map((response) => {
          const [status, meaning] = response.description.split(/: (.*)/s);
          return [status!, meaning] as const;
        })}
      />
      <pre>
        <code>{`{"error": {"code": "VALIDATION_ERROR", "message": "Invalid query parameters",
           "details": [{"field": "limit", "message": "Must be at most 100"}]},
 "meta": {"timestamp": "2026-11-21T19:04:05.123Z", "request_id": "req_8ZkT2mQw9XyLp4Rb7Hc1NvDs"}}`}</code>
      </pre>

      <h2 id="rate-limits">Rate limits</h2>
      <p>
        Each key may make{" "}
        {apiPlans.map((plan, i) => (
          <span key={plan.id}>
            {i > 0 && " or "}
            {plan.requestsPerMinute} ({plan.name})
          </span>
        ))}{" "}
        requests per clock minute. The limit is a <strong>fixed window</strong>: each window is one minute starting at a whole
        UTC minute (Unix time a multiple of 60 seconds), and a key&apos;s count starts afresh when the next one begins. A {free.name}{" "}
        account&apos;s key may make {free.requestsPerMinute} requests a minute, to <code>GET /v1/auth/verify</code>, the
        only endpoint it can call.
      </p>
      <p>{RATE_LIMIT_HEADERS_PRESENCE}</p>
      <CodeTable
        label="Rate-limit headers"
        rows={[
          ["X-RateLimit-Limit", "Requests allowed in each one-minute window."],
          ["X-RateLimit-Remaining", "Requests left in the current window, this one counted."],
          [
            "X-RateLimit-Reset",
            <>
              Unix epoch <strong>seconds</strong> at which the current window ends and the whole limit is available again.
            </>,
          ],
          [
            "RateLimit-Policy",
            <>
              The same limit in the terms of the IETF draft <em>RateLimit header fields for HTTP</em>:{" "}
              <code>&quot;default&quot;;q=100;w=60</code> is a quota of 100 requests per window of 60 seconds.
            </>,
          ],
          [
            "RateLimit",
            <>
              Where the key stands, in the draft&apos;s terms: <code>&quot;default&quot;;r=42;t=17</code> means 42 requests
              remain and the whole quota is back in 17 seconds (the same numbers as <code>X-RateLimit-Remaining</code> and{" "}
              <code>X-RateLimit-Reset</code>).
            </>,
          ],
          [
            "Retry-After",
            <>
              On 429 only: the whole seconds until the window ends (at least 1), equal to the body&apos;s{" "}
              <code>error.retry_after</code>.
            </>,
          ],
        ]}
      />
      <p>
        Over the limit, the answer is <code>429 RATE_LIMITED</code>: wait <code>retry_after</code> seconds, then retry; the
        window has ended by then and the request is admitted. The clients below do this for you. A fixed window makes the
        reset exact, at a cost: a key may send its whole limit at the end of one minute and again at the start of the next.
      </p>
      <p>
        Failed authentications are limited per client address too: after {FAILED_AUTH_LIMIT} requests with unknown, revoked
        or expired keys, or with keys whose IP allowlist leaves that address out, in one clock minute, every request from
        that address is answered{" "}
        <code>429 RATE_LIMITED</code> with <code>retry_after</code> until that minute ends, valid keys included. A client
        that stops on its first <code>401</code> never meets this limit.
      </p>

      <h2 id="conditional-requests">Compression and conditional requests</h2>
      <p>
        The market reads (<code>GET /v1/opportunities</code>, <code>GET /v1/opportunities/{"{id}"}</code> and{" "}
        <code>GET /v1/exchanges</code>) change when new data is published, once per ingestion round (about a minute). Their
        answers carry a strong <code>ETag</code>, a hash of everything in the body but <code>meta.timestamp</code> and{" "}
        <code>meta.request_id</code>, the same on every server until the data changes; <code>Vary: Accept-Encoding</code>;
        and <code>Cache-Control: private, no-cache</code> (keep it if you like, but ask again before using it).
      </p>
      <ul>
        <li>
          <strong>Compression.</strong> Send <code>Accept-Encoding: br</code> or <code>gzip</code> and bodies of 1 KB or
          more come compressed (a 50-item page shrinks about ninefold); the tag then ends in <code>-br</code> or{" "}
          <code>-gzip</code>.
        </li>
        <li>
          <strong>Conditional requests.</strong> Send the tag back in <code>If-None-Match</code>: while the answer is
          unchanged you get <code>304 Not Modified</code> with the rate-limit headers and no body, and use the body you kept.
        </li>
        <li>
          <strong>A 304 counts against the limit.</strong> {NOT_MODIFIED_COUNTS}
        </li>
      </ul>
      <pre>
        <code>{`curl -si --compressed "${base}/v1/opportunities?limit=5" -H "Authorization: Bearer $FUNDING_DATA_API_KEY"
# HTTP/1.1 200 OK … ETag: "q1wE…-br" … RateLimit: "default";r=99;t=41
curl -si --compressed "${base}/v1/opportunities?limit=5" -H "Authorization: Bearer $FUNDING_DATA_API_KEY" \
  -H 'If-None-Match: "q1wE…-br"'
# HTTP/1.1 304 Not Modified … RateLimit: "default";r=98;t=40`}</code>
      </pre>
      <p>The clients below do this for you: they keep the last answer of each URL with its tag and ask with it.</p>

      <h2 id="browsers">Calling the API from a browser</h2>
      <p>
        <code>/v1</code> allows cross-origin requests from any web page (<code>Access-Control-Allow-Origin: *</code>): the
        key travels in the <code>Authorization</code> header, never in a cookie, so another site can only use a key its
        user gave it. Preflight requests are answered without a key; the headers <code>Authorization</code>,{" "}
        <code>Content-Type</code>, <code>Idempotency-Key</code> and <code>If-None-Match</code> may be sent, and{" "}
        <code>X-RateLimit-*</code>, <code>RateLimit</code>, <code>RateLimit-Policy</code>, <code>Retry-After</code>,{" "}
        <code>X-Request-Id</code>, <code>Idempotent-Replayed</code>, <code>Allow</code>, <code>Location</code> and{" "}
        <code>ETag</code> can be read. A key in a
        browser is visible to whoever uses that browser: give such a page a key of its own with only the permissions it
        needs, and revoke it when it is no longer used. The account area (<code>/api/*</code>) allows no cross-origin
        requests.
      </p>

      <h2 id="pagination">Pagination</h2>
      <p>
        Lists take <code>limit</code> and <code>offset</code> (for opportunities: default 50, at most 100, and 0; each
        list&apos;s bounds are in the reference) and answer{" "}
        <code>{`data: {items, total, limit, offset, has_more}`}</code>. Ask for the next page with{" "}
        <code>offset = offset + items.length</code> while <code>has_more</code> is true. Opportunities with equal sort values
        are ordered by id, so pages of one data set do not overlap; the set itself changes when new data is ingested (see{" "}
        <code>meta.data_as_of</code>). Unknown or repeated query parameters are refused with 400, so a misspelt filter never
        silently widens a result.
      </p>

      <h2 id="usage">Usage</h2>
      <p>
        Every request a valid key makes is counted, whatever its answer: successes (2xx, and <code>304 Not Modified</code>),
        client errors (4xx other than 429), requests refused by the rate limit (<code>429</code>) and server errors (5xx),
        per key, per route and per UTC hour; requests with a missing or unknown key belong to no account and are not. The
        counts appear within a few seconds and are kept {USAGE_RETENTION_DAYS} days. <a href="/account/usage">Account → Usage</a>{" "}
        charts them for the last 24 hours and 30 days, with each key&apos;s busiest minute beside its limit: a key whose
        peak nears its limit will soon meet <code>429</code>s.
      </p>
      <p>
        <code>GET /v1/usage</code> gives a program the same numbers, for every key of the calling key&apos;s account (live and
        test): <code>granularity=hour</code> (the default) or <code>day</code> (UTC days), and optionally <code>from</code>{" "}
        (inclusive) and <code>to</code> (exclusive) as ISO 8601 dates or date-times. Without them it answers the last{" "}
        {DEFAULT_BUCKETS.hour} hours, or the last {DEFAULT_BUCKETS.day} days by the day, the current hour or day included. A
        range may span at most {MAX_SPAN_TEXT.hour} by the hour and {MAX_SPAN_TEXT.day} by the day; a longer one, a{" "}
        <code>to</code> not after <code>from</code> or a <code>from</code> in the future without a <code>to</code> is a{" "}
        <code>400 VALIDATION_ERROR</code> naming the field. The answer has the account&apos;s <code>totals</code>, one entry
        per bucket in <code>buckets</code> (empty ones included) and per route in <code>routes</code>, and the same for each
        key in <code>keys</code>, with its <code>peak_per_minute</code> and <code>limit_per_minute</code>. The request itself
        is counted too, like any other.
      </p>
      <pre>
        <code>{`curl -sS "${base}/v1/usage?granularity=day&from=2026-11-01&to=2026-11-08" -H "Authorization: Bearer $FUNDING_DATA_API_KEY"
# {"data": {"granularity": "day", "from": "2026-11-01T00:00:00.000Z", "to": "2026-11-08T00:00:00.000Z",
#   "totals": {"requests": 1520, "successes": 1490, "client_errors": 12, "rate_limited": 18, "server_errors": 0},
#   "buckets": [{"start": "2026-11-01T00:00:00.000Z", "requests": 230, …}, …], "routes": […],
#   "keys": [{"id": "…", "name": "trading bot", "prefix": "svc_sk_live_Ab3dE9xQ…", "peak_per_minute": 100,
#             "limit_per_minute": 100, …}]}, "meta": {…}}`}</code>
      </pre>

      <h2 id="pricing">Pricing a trade</h2>
      <p>
        A listed <code>apr</code> is what the rates pay before anyone trades. <code>GET /v1/opportunities/{"{id}"}/quote</code>{" "}
        answers what is left at your size: it reads both legs&apos; order books ({BOOK_LEVELS} levels a side), buys the long leg
        and sells the short leg for <code>notional</code> USD each, prices leaving again against the same books, and adds the
        funding both legs are expected to settle over <code>hold_hours</code> (default {DEFAULT_HOLD_HOURS}). Per leg it gives
        each fill&apos;s average price and slippage against the mid, the taker fee, the book&apos;s timestamp, the largest size
        that stays within 10 bps, and the liquidation price at <code>leverage</code> (default 1) from the venue&apos;s margin
        tiers; for the pair, the entry and exit cost, expected funding, <code>net_usd</code>, <code>net_apr</code> and{" "}
        <code>breakeven_hours</code>. For $50,000 a leg held three days at 3x:
      </p>
      <pre>
        <code>{`curl -sS "${base}/v1/opportunities/BTC-binance-bybit/quote?notional=50000&hold_hours=72&leverage=3" \\
  -H "Authorization: Bearer $FUNDING_DATA_API_KEY"
# {"data": {"opportunity_id": "BTC-binance-bybit", "notional_usd": 50000, "filled_notional_usd": 50000, "thin_book": false,
#   "long": {"exchange": "binance", "mid_price": 91171.4, "depth_timestamp": "2026-11-24T23:27:00.000Z",
#            "entry": {"side": "buy", "average_price": 91171.6279285, "slippage_bps": 0.025, …},
#            "exit": {"side": "sell", "average_price": 91171.1720715, "slippage_bps": 0.025, …},
#            "taker_fee": 0.0005, "funding": {"settlements": 9, "funding_usd": -45, …},
#            "max_notional_within_10bps_usd": 16319680.6,
#            "liquidation": {"price": 60994.8883273, "distance_pct": 33.0987, "maintenance_margin_rate": 0.005, …}},
#   "short": {"exchange": "bybit", …},
#   "cost_usd": 110.5, "cost_bps": 22.1, "funding_usd": 0, "net_usd": -110.5, "net_apr": -26.888333,
#   "breakeven_hours": null, …}, "meta": {…}}`}</code>
      </pre>
      <p>
        That pair&apos;s rates were equal in that sandbox minute, so the trade only costs: look for a positive{" "}
        <code>net_usd</code>, and a <code>breakeven_hours</code> well inside your holding period. A size a book cannot take is
        not an error: both legs are sized down to what every fill can take, <code>filled_notional_usd</code> says how much and{" "}
        <code>thin_book</code> is true. A leverage above what a leg&apos;s venue allows at that size is a{" "}
        <code>400 VALIDATION_ERROR</code> on <code>leverage</code> naming the maximum. An exchange that does not send its book
        within {BOOK_DEADLINE_MS / 1000} s is a <code>503 VENUE_UNAVAILABLE</code> naming it (the clients retry it like any 5xx);
        a stale book is never used instead, and books are reused for {BOOK_FRESH_MS / 1000} s, so quoting one market again right
        away costs the exchange nothing. Test keys are quoted from the sandbox&apos;s generated books, the same all minute.
      </p>

      <h2 id="examples">curl examples</h2>
      <p>
        With your key in <code>FUNDING_DATA_API_KEY</code>; the examples are the ones the test suite runs.
      </p>
      {API_ROUTES.map((route) => (
        <section key={route.operationId}>
          <h3>
            <code>
              {route.method} {route.path}
            </code>{" "}
            — {route.summary}
          </h3>
          <p className="muted">
            {route.permission ? (
              <>
                Needs the <code>{route.permission}</code> permission (
                {PLANS.filter((plan) => plan.features.api && plan.permissions.includes(route.permission!))
                  .map((plan) => plan.name)
                  .join(", ")}
                ).
              </>
            ) : (
              "Any valid key."
            )}{" "}
            Clients: <code>api.{route.operationId}()</code> in TypeScript, <code>api.{snakeCase(route.operationId)}()</code> in
            Python.
          </p>
          <pre>
            <code>{`curl -sS${route.method === "GET" ? "" : ` -X ${route.method}`} "${base}${examplePath(route)}" \\
  -H "Authorization: Bearer $FUNDING_DATA_API_KEY"${
    route.example?.body ? ` \\\n  -H "Content-Type: application/json" \\\n  -d '${JSON.stringify(route.example.body)}'` : ""
  }`}</code>
          </pre>
          {Object.entries(route.params?.shape ?? {}).map(([name, schema]) => (
            <p key={name} className="muted">
              <code>{route.example?.params?.[name]}</code> stands for <code>{name}</code>: {schema.description}
            </p>
          ))}
        </section>
      ))}

      <section>
        <h3>
          <code>
            {EXPORT_DEFINITION.method} {EXPORT_DEFINITION.path}
          </code>{" "}
          — {EXPORT_DEFINITION.summary}
        </h3>
        <p className="muted">
          Needs the <code>{EXPORT_DEFINITION.permission}</code> permission and a plan with exports ({planNames(plansWith("export"))}).
          The answer is a file (CSV or Parquet) written as it is read, not an envelope: save it (<code>-OJ</code> keeps the name the
          answer gives); the clients have no method for it. Signed in, the screener and its history chart offer the same download.
        </p>
        <pre>
          <code>{`curl -sS -OJ "${base}${EXPORT_DEFINITION.path}?exchanges=binance,okx&symbols=BTC,ETH&format=parquet" \\
  -H "Authorization: Bearer $FUNDING_DATA_API_KEY"`}</code>
        </pre>
      </section>

      <h2 id="clients">Clients</h2>
      <p>
        Official clients for TypeScript/JavaScript and Python are downloaded from this service (they are not on a package
        registry yet):{" "}
        {downloads.map((download, i) => (
          <span key={download.file}>
            {i > 0 && " and "}
            <a href={`/downloads/${download.file}`} download>
              <code>{download.file}</code>
            </a>
          </span>
        ))}
        . Both have a method per endpoint, send the key, retry 429s
        after <code>retry_after</code> and 5xx answers with bounded backoff, iterate over every page of a list, and raise errors
        carrying <code>code</code>, <code>status</code> and the request id. Both ask for compressed bodies and keep the last
        answer of each URL they read (100 by default) with its <code>ETag</code>: asked again, they send{" "}
        <code>If-None-Match</code> and return the kept body on a <code>304</code>. Both read <code>FUNDING_DATA_API_KEY</code> and{" "}
        <code>FUNDING_DATA_BASE_URL</code> when not given a key and address. The address is the service&apos;s origin (
        <code>{base}</code>), without a path: the clients add <code>/v1/…</code> themselves.
      </p>
      <h3>TypeScript (Node 20+, browsers, Deno, Bun; no dependencies)</h3>
      <p>
        npm installs the package straight from its address. It is an ES module (<code>import</code>, not{" "}
        <code>require</code>), so the project using it needs <code>&quot;type&quot;: &quot;module&quot;</code> (or{" "}
        <code>.mts</code> files):
      </p>
      <pre>
        <code>{`mkdir my-bot && cd my-bot && npm init -y && npm pkg set type=module
npm install ${base}/downloads/${typescriptDownload.file} tsx    # tsx runs .ts files
# save the example below as main.ts, then:
FUNDING_DATA_API_KEY=svc_sk_test_... npx tsx main.ts`}</code>
      </pre>
      <pre>
        <code>{`import { FundingDataClient, FundingDataError } from "@funding-data/client";

const api = new FundingDataClient({ apiKey: process.env.FUNDING_DATA_API_KEY, baseUrl: "${base}" });
const { data } = await api.listOpportunities({ limit: 5, min_apr: 10 });
console.log(data.items.map((o) => \`\${o.symbol} long \${o.long.exchange} short \${o.short.exchange}: \${o.apr.toFixed(1)} %\`));

// Every item of every page, each page fetched when reached: stop whenever you have enough.
let seen = 0;
for await (const o of api.iterateOpportunities({ exchange: "okx" })) {
  console.log(o.id);
  if (++seen === 10) break;
}

try {
  await api.getOpportunity("no-such-id");
} catch (e) {
  if (e instanceof FundingDataError) console.log(e.code, e.status, e.requestId); // NOT_FOUND 404 req_…
}`}</code>
      </pre>
      <h3>Python (3.9+, standard library only)</h3>
      <pre>
        <code>{`python3 -m venv .venv && . .venv/bin/activate    # system Pythons refuse pip installs outside one
pip install ${base}/downloads/${pythonDownload.file}
# or, with nothing to install:
curl -fsS ${base}/downloads/${pythonDownload.file} | tar -xz && export PYTHONPATH=$PWD/${pythonDownload.file.replace(/\.tar\.gz$/, "")}
# save the example below as main.py, then:
FUNDING_DATA_API_KEY=svc_sk_test_... python3 main.py`}</code>
      </pre>
      <pre>
        <code>{`import os
from funding_data import FundingDataClient, FundingDataError

api = FundingDataClient(os.environ["FUNDING_DATA_API_KEY"], "${base}")
page = api.list_opportunities(limit=5, min_apr=10)
for o in page["data"]["items"]:
    print(o["symbol"], o["long"]["exchange"], o["short"]["exchange"], round(o["apr"], 1))

# Every item of every page, each page fetched when reached: stop whenever you have enough.
for seen, o in enumerate(api.iter_opportunities(exchange="okx"), start=1):
    print(o["id"])
    if seen == 10:
        break

try:
    api.get_opportunity("no-such-id")
except FundingDataError as e:
    print(e.code, e.status, e.request_id)  # NOT_FOUND 404 req_...`}</code>
      </pre>
      <p>
        Other languages: generate a client from <a href={OPENAPI_PATH}><code>{OPENAPI_PATH}</code></a> with any OpenAPI 3.1
        generator (the test suite checks the document with <code>openapi-typescript</code> and <code>openapi-fetch</code>).
      </p>

      <PushDeliverySection base={base} />

      <h2 id="licence">Licence</h2>
      <p>
        The API, the data it serves, its OpenAPI document and the downloadable clients are proprietary: all rights reserved.
        Your plan gives your account&apos;s keys access to <code>/v1</code> within the limits above, and the clients are
        provided for calling this service.
      </p>

      <section id="reference" className={styles.reference}>
        <h2>Reference</h2>
        <p className="muted">
          Use <em>Authorize</em> with a key to try requests from this page; a <code>svc_sk_test_</code> key keeps them on
          sandbox data.
        </p>
        <ApiReference document={document} />
      </section>
    </div>
  );
}
