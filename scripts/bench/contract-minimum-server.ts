// The ceiling of the conditional run: a bare node:http server doing only the work the contract
// requires of every answer to `If-None-Match`, with the service's own modules for each step:
// read and check the key (Bearer syntax and checksum, SHA-256, lookup), count it against its
// per-minute limit, write the rate-limit headers, a request id and the ETag, compare the ETag and
// answer 304. No routing, no framework, no Request/Response objects. What the service spends above
// this is what its structure costs; what this spends above the bare 304 is the contract's own price.
//   node --import tsx scripts/bench/contract-minimum-server.ts <keys.json> <recorded 304 response.json>
import { readFileSync } from "node:fs";
import http from "node:http";
import { newRequestId } from "@/lib/api/request-id";
import { parseAuthorizationHeader } from "@/lib/keys/authorization-header";
import { hashApiKey } from "@/lib/keys/hash";
import { MemoryRateLimiter } from "@/lib/ratelimit/memory-rate-limiter";
import { DEFAULT_POLICY, rateLimitHeaders } from "@/lib/ratelimit/rate-limit-headers";
import { ifNoneMatchMatches } from "@/lib/response-cache/entity-tag";
import { configuredPlans } from "@/lib/plans";
import type { RecordedResponse } from "./bare-server";
import type { SeededKey } from "./seed";
import { serveBaseline } from "./serve-baseline";

const [keysFile, responseFile] = process.argv.slice(2);
if (!keysFile || !responseFile) throw new Error("usage: contract-minimum-server.ts <keys.json> <response.json>");
const keys = new Map<string, SeededKey>();
for (const key of JSON.parse(readFileSync(keysFile, "utf8")) as SeededKey[]) keys.set(hashApiKey(key.secret), key);
const recorded = JSON.parse(readFileSync(responseFile, "utf8")) as RecordedResponse;
// The recorded answer's fixed headers (security headers, Vary, Cache-Control, ETag); the per-request ones are written anew.
const PER_REQUEST = /^(x-request-id|x-ratelimit-|ratelimit)/i;
const fixed = Object.fromEntries(recorded.headers.filter(([name]) => !PER_REQUEST.test(name)));
const etag = recorded.headers.find(([name]) => name.toLowerCase() === "etag")?.[1];
if (recorded.status !== 304 || !etag) throw new Error("contract-minimum-server replays a 304 with an ETag");
const limiter = new MemoryRateLimiter();
// The benchmark runs both servers with RATE_LIMIT_SCALE=1000, so no key is refused.
const plans = configuredPlans();

const server = http.createServer((req, res) => {
  const parsed = parseAuthorizationHeader(req.headers.authorization);
  const hash = parsed.ok ? hashApiKey(parsed.key) : "";
  const key = keys.get(hash);
  if (!key) {
    res.writeHead(401).end();
    return;
  }
  const result = limiter.limitNow(`key:${hash}`, plans(key.tier).requestsPerMinute, DEFAULT_POLICY.windowMs);
  const headers = { ...fixed, "X-Request-Id": newRequestId(), ...rateLimitHeaders(result, Date.now()).headers };
  if (!result.success) {
    res.writeHead(429, headers).end();
    return;
  }
  res.writeHead(ifNoneMatchMatches(req.headers["if-none-match"], etag) ? 304 : 412, headers).end();
});
serveBaseline(server);
