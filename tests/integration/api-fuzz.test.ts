// Property-based fuzzing of the /v1 app on a real test database: random methods, paths, query
// strings and Authorization headers. Whatever arrives, the answer is one of the two envelopes with
// a known code and its status, never a 500; and where the outcome is known in advance (bad
// credentials, exhausted keys, unknown or repeated parameters, well-formed queries) it is that one.
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { API_ROUTES, createApiApp } from "@/lib/api/app";
import { DEFAULT_MESSAGES } from "@/lib/errors";
import { opportunitiesQuery } from "@/lib/market/opportunities/opportunity-query";
import { createAppServices, type AppServices } from "@/lib/app-services";
import { BASE62_ALPHABET } from "@/lib/keys/base62";
import { checksumFor } from "@/lib/keys/format";
import type { KeyMode } from "@/lib/keys/mode";
import { effectivePermissions, neededPermission, PERMISSIONS, type Permission, type Tier } from "@/lib/keys/permissions";
import { SORTS } from "@/lib/market/opportunities/opportunity-query";
import { VENUE_IDS, type Opportunity } from "@/lib/market/model/types";
import { expectEnvelope, expectRateLimitHeaders } from "./helpers/api-envelope";
import { createKeyFor, createUser, liveOpportunity, seedLiveOpportunities } from "@/tests/support/api-fixtures";
import { testDatabaseForFile } from "@/tests/support/test-database-for-file";

// FUZZ_RUNS scales every property (1 = the default budget, well under a minute on 2 cores).
const RUNS = Number(process.env.FUZZ_RUNS ?? 1);
const runs = (n: number) => Math.max(1, Math.round(n * RUNS));
// Enough head-room that no key but the exhausted one (how 429s are fuzzed) reaches its limit:
// Free keys get 10 × scale a minute.
const RATE_LIMIT_SCALE = String(Math.ceil(100 * Math.max(1, RUNS)));

interface KeyCase {
  label: string;
  secret: string;
  id: string;
  tier: Tier;
  mode: KeyMode;
  permissions: Permission[];
  /** Exists, not revoked, not expired: the API must accept it. */
  valid: boolean;
  /** Its window is kept full: every /v1 request with it is a 429. */
  exhausted?: boolean;
  expiresAt: Date | null;
}

const database = testDatabaseForFile();
let services: AppServices;
let app: ReturnType<typeof createApiApp>;
let keys: KeyCase[];

beforeAll(async () => {
  // The in-process limiter: this file fuzzes input handling; the shared store has its own tests.
  services = createAppServices(async () => database.db, { ...process.env, RATE_LIMIT_SCALE, REDIS_URL: "", UPSTASH_REDIS_REST_URL: "" });
  app = createApiApp(() => services);
  await seedLiveOpportunities(database.db, [
    liveOpportunity("BTC", 12.5),
    liveOpportunity("ETH", 30, "okx", "gate"),
    liveOpportunity("SOL", 30, "bybit", "okx"),
    liveOpportunity("DOGE", -4, "hyperliquid", "bitget"),
    liveOpportunity("XRP", 0.25, "binance", "okx"),
  ]);

  const db = database.db;
  const users = { pro: await createUser(db, "pro"), desk: await createUser(db, "desk") };
  const future = new Date(Date.now() + 30 * 86_400_000);
  const make = async (
    label: string,
    tier: Tier,
    options: { mode?: KeyMode; permissions?: Permission[]; expiresAt?: Date; revokedAt?: Date; exhausted?: boolean } = {},
  ): Promise<KeyCase> => {
    const user = tier === "free" ? await createUser(db, "free") : users[tier];
    const created = await createKeyFor(db, user.id, options);
    const expired = options.expiresAt !== undefined && options.expiresAt <= new Date();
    return {
      label,
      secret: created.secret,
      id: created.id,
      tier,
      mode: options.mode ?? "live",
      permissions: effectivePermissions(options.permissions ?? PERMISSIONS, tier),
      valid: options.revokedAt === undefined && !expired,
      exhausted: options.exhausted,
      expiresAt: options.expiresAt ?? null,
    };
  };
  keys = [
    await make("desk live", "desk"),
    await make("desk test", "desk", { mode: "test" }),
    await make("desk live expiring", "desk", { expiresAt: future }),
    await make("pro live", "pro"),
    await make("pro test", "pro", { mode: "test" }),
    await make("pro without opportunities:read", "pro", { permissions: ["portfolio:read", "simulations:read"] }),
    await make("free", "free"),
    await make("free exhausted", "free", { exhausted: true }),
    await make("desk revoked", "desk", { revokedAt: new Date(Date.now() - 1000) }),
    await make("pro expired", "pro", { expiresAt: new Date(Date.now() - 1000) }),
  ];
  for (const key of keys) if (key.exhausted) await exhaust(key);
}, 120_000);

afterAll(async () => {
  await services?.stopRecorders();
  // Lets the live set's background version check, started by the last requests, finish first.
  await new Promise((resolve) => setTimeout(resolve, 200));
});

/** Fills the key's window through the API itself, so the next request with it is refused. */
async function exhaust(key: KeyCase) {
  // Twice the limit and more: a window that ends part-way through is filled again in the next.
  for (let i = 0; i <= 2 * services.requestsPerMinute(key.tier) + 1; i++) {
    const response = await app.fetch(
      new Request("http://localhost/v1/auth/verify", { headers: { Authorization: `Bearer ${key.secret}` } }),
    );
    await response.arrayBuffer();
    if (response.status === 429) return;
    expect(response.status).toBe(200);
  }
  throw new Error(`could not exhaust the window of ${key.label}`);
}

// ---------------------------------------------------------------------------------------------
// Arbitraries

/** UTF-8 percent-encoding of every byte outside the unreserved set (lone surrogates become U+FFFD). */
function pct(text: string): string {
  let out = "";
  for (const byte of new TextEncoder().encode(text)) {
    const ch = String.fromCharCode(byte);
    out += /[A-Za-z0-9\-._~]/.test(ch) ? ch : `%${byte.toString(16).toUpperCase().padStart(2, "0")}`;
  }
  return out;
}

const base62 = (length: number) =>
  fc.string({ unit: fc.constantFrom(...BASE62_ALPHABET), minLength: length, maxLength: length });
/** Characters a header value may carry (Latin-1 without NUL, CR, LF). */
const headerChar = fc
  .integer({ min: 1, max: 255 })
  .filter((c) => c !== 10 && c !== 13)
  .map((c) => String.fromCharCode(c));
const headerText = (minLength: number, maxLength: number) => fc.string({ unit: headerChar, minLength, maxLength });
const notSpace = headerChar.filter((c) => c !== " " && c !== "\t");
const unicode = (maxLength: number) =>
  fc.oneof(fc.string({ unit: "binary", maxLength }), fc.string({ unit: "grapheme", maxLength }), fc.string({ maxLength }));
const hugeDigits = fc.integer({ min: 17, max: 400 }).map((n) => "9".repeat(n));

interface AuthCase {
  header: string | undefined;
  /** The key the header must authenticate, or null when the answer must be 401. */
  key: KeyCase | null;
  label: string;
}

function authArbitrary(): fc.Arbitrary<AuthCase> {
  const anyKey = fc.constantFrom(...keys);
  const scheme = fc.constantFrom("Bearer", "bearer", "BEARER", "bEaReR");
  const spaces = fc.integer({ min: 1, max: 4 }).map((n) => " ".repeat(n));
  // Leading and trailing spaces and tabs are not part of a header value (Fetch strips them).
  const httpWhitespace = fc.constantFrom("", "", " ", "\t", " \t ");
  const refuse = (header: string | undefined, label: string): AuthCase => ({ header, key: null, label });

  const wellFormed = fc
    .tuple(httpWhitespace, scheme, spaces, anyKey, httpWhitespace)
    .map(([lead, s, sp, key, trail]): AuthCase => ({
      header: `${lead}${s}${sp}${key.secret}${trail}`,
      key: key.valid ? key : null,
      label: `well-formed header with ${key.label}`,
    }));
  const unknownKey = fc
    .tuple(fc.constantFrom<KeyMode>("live", "test"), base62(32))
    .map(([mode, body]) => refuse(`Bearer svc_sk_${mode}_${body}${checksumFor(mode, body)}`, "unknown key, good checksum"));
  const badChecksum = fc
    .tuple(anyKey, fc.integer({ min: 12, max: 49 }), fc.constantFrom(...BASE62_ALPHABET))
    .filter(([key, at, ch]) => key.secret[at] !== ch)
    .map(([key, at, ch]) => refuse(`Bearer ${key.secret.slice(0, at)}${ch}${key.secret.slice(at + 1)}`, "one character changed"));
  const swappedMode = anyKey.map((key) =>
    refuse(`Bearer ${key.secret.replace(/^svc_sk_(live|test)_/, (_, m) => `svc_sk_${m === "live" ? "test" : "live"}_`)}`, "mode swapped"),
  );
  const randomChecksum = fc
    .tuple(fc.constantFrom<KeyMode>("live", "test"), base62(32), base62(6))
    .filter(([mode, body, sum]) => checksumFor(mode, body) !== sum)
    .map(([mode, body, sum]) => refuse(`Bearer svc_sk_${mode}_${body}${sum}`, "random checksum"));
  const malformedKey = fc
    .tuple(anyKey, fc.constantFrom("upper", "truncate", "extend", "sk_", "no-prefix", "twice", "comma", "quoted"), notSpace)
    .map(([key, how, ch]) => {
      const s = key.secret;
      const credentials = {
        upper: s.replace("svc_sk_", "SVC_SK_"),
        truncate: s.slice(0, -1),
        extend: `${s}${ch}`,
        "sk_": s.replace("svc_sk_", "sk_"),
        "no-prefix": s.replace(/^svc_sk_(live|test)_/, ""),
        twice: `${s} ${s}`,
        comma: `${s}, Bearer ${s}`,
        quoted: `"${s}"`,
      }[how];
      return refuse(`Bearer ${credentials}`, `malformed (${how})`);
    });
  const junkAround = fc
    .tuple(anyKey, notSpace, headerText(0, 30), fc.boolean())
    .map(([key, first, rest, before]) =>
      refuse(before ? `Bearer ${first}${rest}${key.secret}` : `Bearer ${key.secret}${rest}${first}`, "junk around a real key"),
    );
  const wrongScheme = fc
    .tuple(
      fc.oneof(
        fc.constantFrom("Basic", "Token", "Bearer:", "Bearerr", "Bear", "ApiKey", "Digest", "Bearer\t", "\u00a0Bearer", "Bearer\u00a0"),
        headerText(0, 12),
      ),
      anyKey,
    )
    .filter(([s]) => !s.includes(" ") && s.replace(/^[\t ]+/, "").toLowerCase() !== "bearer")
    .map(([s, key]) => refuse(`${s} ${key.secret}`, `scheme ${JSON.stringify(s)}`));
  const tabSeparated = fc
    .tuple(anyKey, fc.constantFrom("\t", " \t", "\t "))
    .map(([key, sep]) => refuse(`Bearer${sep}${key.secret}`, "tab between scheme and key"));
  const noSeparator = anyKey.map((key) => refuse(`Bearer${key.secret}`, "no space after the scheme"));
  const empty = fc.constantFrom(undefined, "", " ", "\t", "Bearer", "Bearer ", "bearer    ", "Basic").map((h) => refuse(h, "missing or empty"));
  const garbage = fc.oneof(
    headerText(1, 200).map((h) => refuse(h, "random header")),
    headerText(0, 80).map((h) => refuse(`Bearer ${h}`, "Bearer + random text")),
    fc.integer({ min: 1_000, max: 20_000 }).map((n) => refuse(`Bearer ${"svc_sk_live_".repeat(Math.ceil(n / 12))}`, "very long")),
  );
  const refused = [unknownKey, badChecksum, swappedMode, randomChecksum, malformedKey, junkAround, wrongScheme, tabSeparated, noSeparator, empty, garbage];
  return fc.oneof({ weight: 6, arbitrary: wellFormed }, ...refused.map((arbitrary) => ({ weight: 1, arbitrary })));
}

const ROUTE_PATHS = API_ROUTES.map((r) => r.path);
const segment = fc.oneof(
  fc.webSegment(),
  unicode(12).map(pct),
  fc.constantFrom("..", ".", "", "%", "%zz", "%00", "%2e%2e", "%2F", "opportunities", "verify", "auth", "%F0%9F%92%A9", "%C0%AF"),
);
const pathArbitrary = fc.oneof(
  { weight: 8, arbitrary: fc.constantFrom(...ROUTE_PATHS) },
  { weight: 1, arbitrary: fc.constantFrom(...ROUTE_PATHS).map((p) => `${p}/`) },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      "/v1",
      "/v1/",
      "/v1//opportunities",
      "/V1/opportunities",
      "/v1/OPPORTUNITIES",
      "/v1/auth",
      "/v1/auth/verify/extra",
      "/v1/opportunities/BTC",
      "/v1/%6Fpportunities",
      "/v1/opportunities%2F",
      "/v1/auth%2Fverify",
      "/v1/..",
      "/v1/./opportunities",
      "/v1/opportunities;x",
      "/v1/opportunities.json",
      "/v1/simulations",
      "/v1/portfolio",
    ),
  },
  { weight: 3, arbitrary: fc.array(segment, { minLength: 1, maxLength: 5 }).map((s) => `/v1/${s.join("/")}`) },
);
const methodArbitrary = fc.oneof(
  { weight: 8, arbitrary: fc.constant("GET") },
  { weight: 1, arbitrary: fc.constantFrom("POST", "PUT", "PATCH", "DELETE", "OPTIONS", "HEAD", "get", "delete", "FOO", "PROPFIND", "M-SEARCH") },
);

type ParamKind = "valid" | "invalid" | "arbitrary" | "unknown";
interface Param {
  name: string;
  /** As it goes into the query string (already encoded). */
  encoded: string;
  kind: ParamKind;
}

const KNOWN = Object.keys(opportunitiesQuery.shape);
const int = (min: number, max: number) => fc.integer({ min, max }).map(String);
const padded = (arb: fc.Arbitrary<string>) => fc.tuple(arb, fc.integer({ min: 0, max: 3 })).map(([v, n]) => "0".repeat(n) + v);
const decimal = fc
  .tuple(fc.boolean(), fc.integer({ min: 0, max: 100_000 }), fc.option(fc.integer({ min: 0, max: 99_999 }), { nil: undefined }))
  .map(([negative, whole, fraction]) => `${negative ? "-" : ""}${whole}${fraction === undefined ? "" : `.${fraction}`}`);
const junkValue = fc.oneof(
  unicode(30),
  headerText(0, 30),
  fc.constantFrom("", " ", "+5", " 5", "5 ", "0x10", "1e2", "5.0", ".5", "5.", "-", "null", "undefined", "[]", "{}", "true", "%", "%zz"),
  fc.integer({ min: 100, max: 5_000 }).map((n) => "x".repeat(n)),
  hugeDigits,
  fc.double().map(String),
  fc.bigInt().map(String),
);

/** For each known parameter: values the API accepts, values it refuses, and anything at all. */
const VALUES: Record<string, { valid: fc.Arbitrary<string>; invalid: fc.Arbitrary<string> }> = {
  limit: {
    valid: padded(int(1, 100)),
    invalid: fc.oneof(int(101, 1_000_000_000), int(-1_000_000, 0), hugeDigits, fc.constantFrom("abc", "1.5", "ten", "NaN", "-1")),
  },
  offset: {
    valid: padded(int(0, 100_000)),
    invalid: fc.oneof(int(-1_000_000_000, -1), fc.constantFrom("abc", "1.5", "-1", "NaN", "Infinity")),
  },
  exchange: {
    valid: fc.constantFrom(...VENUE_IDS),
    invalid: fc.constantFrom("ftx", "mtgox", "binance.us", "coinbase", "kraken"),
  },
  exchanges: {
    valid: fc.uniqueArray(fc.constantFrom(...VENUE_IDS), { minLength: 1, maxLength: 5 }).map((venues) => venues.join(",")),
    invalid: fc.constantFrom("ftx", "okx,ftx", "OKX", ",", "okx,", "okx,,bybit", "okx bybit"),
  },
  min_apr: {
    valid: decimal,
    invalid: fc.constantFrom("ten", "NaN", "Infinity", "-Infinity", "abc", "1,5", "1.2.3"),
  },
  symbol: {
    valid: fc.string({ unit: fc.constantFrom(..."ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"), minLength: 1, maxLength: 10 }),
    invalid: fc.constantFrom("x".repeat(21), "BTC/USDT"),
  },
  sort: { valid: fc.constantFrom(...SORTS), invalid: fc.constantFrom("volume", "random", "--apr") },
  type: { valid: fc.constant("perp_perp"), invalid: fc.constantFrom("spot_perp", "perp_spot", "PERP_PERP", "perp") },
};

/** Unreserved characters plus the sub-delims a query may carry raw, none of which split a pair. */
const rawQueryChar = fc.constantFrom(..."abcXYZ019-._~!$'()*,;:@/?%+ ");

const knownParam: fc.Arbitrary<Param> = fc.constantFrom(...KNOWN).chain((name) =>
  fc.oneof(
    { weight: 5, arbitrary: VALUES[name]!.valid.map((v): Param => ({ name, encoded: `${pct(name)}=${pct(v)}`, kind: "valid" })) },
    { weight: 2, arbitrary: VALUES[name]!.invalid.map((v): Param => ({ name, encoded: `${pct(name)}=${pct(v)}`, kind: "invalid" })) },
    { weight: 2, arbitrary: junkValue.map((v): Param => ({ name, encoded: `${pct(name)}=${pct(v)}`, kind: "arbitrary" })) },
    {
      weight: 1,
      arbitrary: fc.string({ unit: rawQueryChar, maxLength: 20 }).map((v): Param => ({ name, encoded: `${pct(name)}=${v}`, kind: "arbitrary" })),
    },
    { weight: 1, arbitrary: fc.constant<Param>({ name, encoded: pct(name), kind: "arbitrary" }) },
  ),
);
const unknownParam: fc.Arbitrary<Param> = fc
  .tuple(
    fc.oneof(
      fc.constantFrom("Limit", "LIMIT", "limit ", " limit", "min-apr", "minApr", "page", "exchange[]", "offset\u0000", "", "api_key", "__proto__", "constructor", "toString"),
      unicode(20),
    ),
    junkValue,
  )
  .filter(([name]) => !KNOWN.includes(name))
  .map(([name, value]): Param => ({ name, encoded: `${pct(name)}=${pct(value)}`, kind: "unknown" }));

const queryArbitrary: fc.Arbitrary<Param[]> = fc.oneof(
  { weight: 4, arbitrary: fc.uniqueArray(knownParam, { maxLength: 6, selector: (p) => p.name }) },
  { weight: 3, arbitrary: fc.array(fc.oneof({ weight: 4, arbitrary: knownParam }, { weight: 1, arbitrary: unknownParam }), { maxLength: 8 }) },
);

function queryString(params: Param[], separators: string[]): string {
  return params.map((p, i) => (i === 0 ? "" : (separators[i % separators.length] ?? "&")) + p.encoded).join("");
}
const separatorsArbitrary = fc.array(fc.constantFrom("&", "&", "&&"), { minLength: 1, maxLength: 3 });

// ---------------------------------------------------------------------------------------------
// Sending and checking

interface Sent {
  request: Request;
  response: Response;
  text: string;
  describe: string;
}

async function send(method: string, pathAndQuery: string, auth: AuthCase, body?: string): Promise<Sent | undefined> {
  let request: Request;
  try {
    const headers = new Headers();
    if (auth.header !== undefined) headers.set("Authorization", auth.header);
    const hasBody = body !== undefined && !["GET", "HEAD"].includes(method.toUpperCase());
    request = new Request(`http://localhost${pathAndQuery}`, { method, headers, ...(hasBody && { body }) });
  } catch {
    return undefined; // not a request HTTP can carry (fetch refuses to build it)
  }
  if (auth.key?.exhausted) await exhaust(auth.key);
  const response = await app.fetch(request);
  const text = await response.text();
  const describe = `${method} ${pathAndQuery.slice(0, 300)} [${auth.label}: ${JSON.stringify(auth.header?.slice(0, 80))}]`;
  return { request, response, text, describe };
}

function underV1(request: Request) {
  const { pathname } = new URL(request.url);
  return pathname === "/v1" || pathname.startsWith("/v1/");
}

const seenStatuses = new Map<number, number>();

/** The invariants every answer keeps, whatever was asked. */
function checkInvariants({ request, response, text, describe }: Sent, auth: AuthCase) {
  const { status, headers } = response;
  seenStatuses.set(status, (seenStatuses.get(status) ?? 0) + 1);
  expect(status, `never a 500: ${describe}`).not.toBe(500);
  if (request.method === "HEAD") {
    expect(text, `HEAD has no body: ${describe}`).toBe("");
    expect(headers.get("x-request-id"), `X-Request-Id on HEAD: ${describe}`).toMatch(/^req_[0-9A-Za-z]{24}$/);
  }
  const envelope = request.method === "HEAD" ? undefined : expectEnvelope(status, headers, text, describe);

  if (!underV1(request)) return envelope;
  if (auth.key === null) {
    expect(status, `refused credentials are 401 on every /v1 path: ${describe}`).toBe(401);
    if (envelope?.kind === "error") {
      expect(envelope.error.code).toBe("UNAUTHORIZED");
      // The code's default text, then which cause it was; the RFC 6750 challenge beside it.
      expect(envelope.error.message).toMatch(new RegExp(`^${DEFAULT_MESSAGES.UNAUTHORIZED}: (the Authorization header|the Bearer token|the key) `));
    }
    expect(headers.get("www-authenticate"), `a Bearer challenge on every 401: ${describe}`).toMatch(/^Bearer( error="invalid_token", error_description="[^"\\]+")?$/);
    return envelope;
  }
  expectRateLimitHeaders(headers, services.requestsPerMinute(auth.key.tier), describe);
  if (auth.key.exhausted) expect(status, `an exhausted key is refused everywhere: ${describe}`).toBe(429);
  else expect([401, 429], `a valid key with room in its window is neither 401 nor 429: ${describe}`).not.toContain(status);
  return envelope;
}

const validKeys = () => keys.filter((k) => k.valid && !k.exhausted);
const readers = () => validKeys().filter((k) => k.permissions.includes("opportunities:read"));
const wellFormedHeader = (key: KeyCase): AuthCase => ({ header: `Bearer ${key.secret}`, key, label: key.label });

describe("/v1 under random input", () => {
  it("answers any method, path, query and Authorization header with a well-formed envelope", async () => {
    await fc.assert(
      fc.asyncProperty(
        methodArbitrary,
        pathArbitrary,
        fc.option(queryArbitrary, { nil: undefined }),
        separatorsArbitrary,
        authArbitrary(),
        fc.option(unicode(200), { nil: undefined }),
        async (method, path, params, separators, auth, body) => {
          const query = params === undefined ? "" : `?${queryString(params, separators)}`;
          const sent = await send(method, `${path}${query}`, auth, body);
          fc.pre(sent !== undefined);
          checkInvariants(sent!, auth);
        },
      ),
      { numRuns: runs(2_500) },
    );
    // The fuzzer has to have reached every kind of answer, or it proved little.
    for (const status of RUNS >= 1 ? [200, 400, 401, 403, 404, 405, 429] : []) {
      expect(seenStatuses.get(status) ?? 0, `status ${status} seen (all: ${JSON.stringify([...seenStatuses])})`).toBeGreaterThan(0);
    }
  }, 60_000);

  it("refuses every credential that is not a valid key with 401, and never refuses a valid one", async () => {
    await fc.assert(
      fc.asyncProperty(authArbitrary(), fc.constantFrom(...ROUTE_PATHS, "/v1/nope", "/v1"), async (auth, path) => {
        const sent = await send("GET", path, auth);
        fc.pre(sent !== undefined);
        checkInvariants(sent!, auth);
        if (auth.key === null || auth.key.exhausted) return;
        // Without parameters: /v1/funding-rates, its coverage and a quote lack their required ones (400, decided before the path's id);
        // ":id" names no opportunity, simulation or position (404); a path only other methods have is 405 to any valid key.
        const readerStatus: Record<string, [Permission, number]> = {
          "/v1/opportunities": ["opportunities:read", 200],
          "/v1/exchanges": ["opportunities:read", 200],
          "/v1/opportunities/:id": ["opportunities:read", 404],
          "/v1/opportunities/:id/quote": ["opportunities:read", 400],
          // ":id" is no carry id: a 400 saying what one looks like.
          "/v1/carry-opportunities": ["opportunities:read", 200],
          "/v1/carry-opportunities/:id": ["opportunities:read", 400],
          "/v1/carry-opportunities/:id/quote": ["opportunities:read", 400],
          "/v1/funding-rates": ["opportunities:read", 400],
          "/v1/funding-rates/coverage": ["opportunities:read", 400],
          "/v1/funding-intervals": ["opportunities:read", 200],
          "/v1/events": ["opportunities:read", 200],
          "/v1/events/:id": ["opportunities:read", 404],
          "/v1/events/:id/deliveries": ["write", 404],
          "/v1/simulations": ["simulations:read", 200],
          "/v1/simulations/:id": ["simulations:read", 404],
          "/v1/portfolio": ["portfolio:read", 200],
          "/v1/portfolio/positions/:id": ["portfolio:read", 404],
          "/v1/usage": ["opportunities:read", 200],
          "/v1/account/fees": ["opportunities:read", 200],
          "/v1/webhook-endpoints": ["write", 200],
          "/v1/webhook-endpoints/:id": ["write", 404],
          "/v1/webhook-endpoints/:id/deliveries": ["write", 404],
          "/v1/alert-rules": ["opportunities:read", 200],
          "/v1/alert-rules/:id": ["opportunities:read", 404],
        };
        const needs = readerStatus[path];
        const otherMethodsOnly = API_ROUTES.some((r) => r.path === path) && !API_ROUTES.some((r) => r.path === path && r.method === "GET");
        const expected =
          path === "/v1/auth/verify"
            ? 200
            : needs
              ? auth.key.permissions.includes(needs[0] === "write" ? neededPermission("write", "opportunities:read", auth.key.tier)! : needs[0])
                ? needs[1]
                : 403
              : otherMethodsOnly
                ? 405
                : 404;
        expect(sent!.response.status, sent!.describe).toBe(expected);
        if (path === "/v1/auth/verify") {
          const { data } = JSON.parse(sent!.text);
          expect(data).toEqual({
            valid: true,
            tier: auth.key.tier,
            expires_at: auth.key.expiresAt?.toISOString() ?? null,
            mode: auth.key.mode,
            permissions: auth.key.permissions,
          });
        }
      }),
      { numRuns: runs(1_500) },
    );
  }, 60_000);

  it("validates /v1/opportunities query strings: unknown and repeated names and bad values are 400s, good ones are served", async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...readers()), queryArbitrary, separatorsArbitrary, async (key, params, separators) => {
        const sent = await send("GET", `/v1/opportunities?${queryString(params, separators)}`, wellFormedHeader(key));
        fc.pre(sent !== undefined);
        const envelope = checkInvariants(sent!, wellFormedHeader(key))!;
        const { status } = sent!.response;
        // What the app received, decoded; one pair per generated parameter.
        const pairs = [...new URL(sent!.request.url).searchParams];
        expect(pairs.length, `one decoded pair per parameter: ${sent!.describe}`).toBe(params.length);
        const names = pairs.map(([name]) => name);
        const unknown = names.filter((n) => !KNOWN.includes(n));
        const repeated = names.filter((n, i) => KNOWN.includes(n) && names.indexOf(n) !== i);
        const fields = envelope.kind === "error" ? (envelope.error.details ?? []).map((d) => d.field) : [];
        const where = `${sent!.describe} → ${status} ${sent!.text.slice(0, 300)}`;

        if (unknown.length > 0 || repeated.length > 0) {
          expect(status, `unknown or repeated parameters are refused: ${where}`).toBe(400);
          for (const name of [...unknown, ...repeated]) expect(fields, `details name ${JSON.stringify(name)}: ${where}`).toContain(name);
          return;
        }
        const invalid = params.filter((p) => p.kind === "invalid").map((p) => p.name);
        if (invalid.length > 0) {
          expect(status, `out-of-range or malformed values are refused: ${where}`).toBe(400);
          for (const name of invalid) expect(fields, `details name ${name}: ${where}`).toContain(name);
          return;
        }
        if (params.every((p) => p.kind === "valid")) expect(status, `well-formed queries are served: ${where}`).toBe(200);
        expect([200, 400], where).toContain(status);
        if (envelope.kind === "error") {
          for (const field of fields) expect(names, `details only name parameters that were sent: ${where}`).toContain(field);
          return;
        }
        expectPage(envelope.data, Object.fromEntries(pairs), where);
        expect(envelope.meta.mode, where).toBe(key.mode);
      }),
      { numRuns: runs(1_500) },
    );
  }, 60_000);

  it("answers methods other than a route's own with 405 and Allow, and unknown /v1 paths with 404", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...validKeys()),
        fc.oneof(
          fc.constantFrom(...API_ROUTES).chain((route) => {
            const own = API_ROUTES.filter((r) => r.path === route.path).map((r) => r.method);
            const others = ["GET", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "FOO"].filter((m) => !(own as string[]).includes(m));
            return fc.constantFrom(...others).map((method) => ({ method, path: route.path, expected: 405, allow: own.join(", ") }));
          }),
          fc.array(fc.webSegment().filter((s) => s.length > 0), { minLength: 1, maxLength: 4 }).map((segments) => ({
            method: "GET",
            path: `/v1/zz-${segments.join("/")}`,
            expected: 404,
            allow: undefined,
          })),
        ),
        async (key, { method, path, expected, allow }) => {
          const sent = (await send(method, path, wellFormedHeader(key)))!;
          checkInvariants(sent, wellFormedHeader(key));
          expect(sent.response.status, sent.describe).toBe(expected);
          if (allow) expect(sent.response.headers.get("allow"), sent.describe).toBe(allow);
        },
      ),
      { numRuns: runs(300) },
    );
  }, 60_000);

  it("serves a route path with a trailing slash as the route or as 404, never as 405 for the route's own method", async () => {
    for (const route of API_ROUTES) {
      const key = readers()[0]!;
      const sent = (await send(route.method, `${route.path}/`, wellFormedHeader(key)))!;
      checkInvariants(sent, wellFormedHeader(key));
      expect([200, 404], sent.describe).toContain(sent.response.status);
    }
  });

  it("treats percent-encoded unreserved characters in a route path as the route itself (RFC 3986 §6.2.2.2), for every method", async () => {
    const key = readers()[0]!;
    for (const route of API_ROUTES) {
      // The same path with its first letter after /v1/ percent-encoded, e.g. /v1/%6Fpportunities.
      const letter = route.path.charAt(4);
      const encoded = `/v1/%${letter.charCodeAt(0).toString(16).toUpperCase()}${route.path.slice(5)}`;
      for (const method of [route.method, "DELETE", "POST"]) {
        const plain = (await send(method, route.path, wellFormedHeader(key)))!;
        const variant = (await send(method, encoded, wellFormedHeader(key)))!;
        checkInvariants(variant, wellFormedHeader(key));
        expect(variant.response.status, `${variant.describe} vs ${plain.describe}`).toBe(plain.response.status);
        expect(variant.response.headers.get("allow"), variant.describe).toBe(plain.response.headers.get("allow"));
      }
    }
  });

  it("refuses unknown query parameters on GET /v1/auth/verify too (unknown query parameters are refused on every route)", async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...validKeys()), fc.array(unknownParam, { minLength: 1, maxLength: 3 }), async (key, params) => {
        const sent = (await send("GET", `/v1/auth/verify?${queryString(params, ["&"])}`, wellFormedHeader(key)))!;
        const envelope = checkInvariants(sent, wellFormedHeader(key))!;
        expect(sent.response.status, sent.describe).toBe(400);
        expect(envelope.kind === "error" && envelope.error.code).toBe("VALIDATION_ERROR");
      }),
      { numRuns: runs(100) },
    );
  });
});

/** A page of opportunities agrees with the query that asked for it. */
function expectPage(data: unknown, query: Record<string, string>, where: string) {
  const page = data as { items: Opportunity[]; total: number; limit: number; offset: number; has_more: boolean };
  expect(Object.keys(page).sort(), where).toEqual(["has_more", "items", "limit", "offset", "total"]);
  const limit = query.limit === undefined ? 50 : Number(query.limit);
  const offset = query.offset === undefined ? 0 : Number(query.offset);
  expect(page.limit, where).toBe(limit);
  expect(page.offset, where).toBe(offset);
  expect(Number.isInteger(page.total) && page.total >= 0, where).toBe(true);
  expect(page.items.length, where).toBe(Math.max(0, Math.min(limit, page.total - offset)));
  expect(page.has_more, where).toBe(offset + page.items.length < page.total);
  const exchange = query.exchange;
  const minApr = query.min_apr === undefined ? undefined : Number(query.min_apr);
  const symbol = query.symbol?.toUpperCase();
  for (const item of page.items) {
    if (exchange !== undefined) expect([item.long.exchange, item.short.exchange], where).toContain(exchange);
    if (minApr !== undefined) expect(item.apr, where).toBeGreaterThanOrEqual(minApr);
    if (symbol !== undefined) expect(item.symbol, where).toBe(symbol);
  }
  const venues = query.exchanges?.split(",");
  if (venues) for (const item of page.items) expect(venues, where).toEqual(expect.arrayContaining([item.long.exchange, item.short.exchange]));
  const sort = query.sort ?? "-apr";
  // Stability sorts the steadiest first (highest paid share), and "-stability" the other way round.
  const value = (o: Opportunity) =>
    sort.includes("stability")
      ? o.persistence.paid_share_7d
      : sort.includes("net_apr")
        ? o.net_apr
        : sort.includes("open_interest")
          ? o.open_interest_usd
          : o.apr;
  const descending = sort === "stability" || (sort.startsWith("-") && sort !== "-stability");
  for (let i = 1; i < page.items.length; i++) {
    const [a, b] = [value(page.items[i - 1]!), value(page.items[i]!)];
    if (a === null || b === null) continue;
    if (descending) expect(a, `sorted by ${sort}: ${where}`).toBeGreaterThanOrEqual(b);
    else expect(a, `sorted by ${sort}: ${where}`).toBeLessThanOrEqual(b);
  }
}
