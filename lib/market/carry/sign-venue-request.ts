import { createHash, createHmac } from "node:crypto";

/** A venue's read-only API key, as the operator configures it (ingest-config.ts SPOT_*_API_KEY/SECRET). */
export interface VenueApiKey {
  key: string;
  secret: string;
}

/** The signed request's query (in the order it is sent) and the headers it needs. */
export interface SignedRequest {
  query: Record<string, string>;
  headers: Record<string, string>;
}

/** The query as it goes on the wire: each venue signs exactly these bytes. */
export function queryString(query: Record<string, string>): string {
  return new URLSearchParams(query).toString();
}

function hmacHex(algorithm: "sha256" | "sha512", secret: string, payload: string): string {
  return createHmac(algorithm, secret).update(payload).digest("hex");
}

/**
 * Binance SIGNED (USER_DATA) endpoints: `timestamp` (and `recvWindow`) join the query, whose
 * HMAC-SHA256 under the secret goes last as `signature`; the key travels in `X-MBX-APIKEY`.
 */
export function signBinance(query: Record<string, string>, apiKey: VenueApiKey, nowMs: number, recvWindowMs = 5_000): SignedRequest {
  const signed = { ...query, recvWindow: String(recvWindowMs), timestamp: String(nowMs) };
  return { query: { ...signed, signature: hmacHex("sha256", apiKey.secret, queryString(signed)) }, headers: { "X-MBX-APIKEY": apiKey.key } };
}

/**
 * Bybit v5: HMAC-SHA256 of `timestamp + key + recvWindow + queryString`, sent in headers; the
 * query itself is unchanged.
 */
export function signBybit(query: Record<string, string>, apiKey: VenueApiKey, nowMs: number, recvWindowMs = 5_000): SignedRequest {
  const payload = `${nowMs}${apiKey.key}${recvWindowMs}${queryString(query)}`;
  return {
    query,
    headers: {
      "X-BAPI-API-KEY": apiKey.key,
      "X-BAPI-TIMESTAMP": String(nowMs),
      "X-BAPI-RECV-WINDOW": String(recvWindowMs),
      "X-BAPI-SIGN": hmacHex("sha256", apiKey.secret, payload),
    },
  };
}

/**
 * Gate API v4: HMAC-SHA512 (Gate's scheme is SHA-512, not SHA-256) of
 * `METHOD\nPATH\nQUERY\nhex(SHA512(body))\nTIMESTAMP`, the timestamp in seconds; key, timestamp
 * and signature go in headers. A GET has an empty body, whose hash is still included.
 */
export function signGate(method: "GET" | "POST", path: string, query: Record<string, string>, apiKey: VenueApiKey, nowMs: number, body = ""): SignedRequest {
  const timestamp = String(Math.floor(nowMs / 1000));
  const bodyHash = createHash("sha512").update(body).digest("hex");
  const payload = [method, path, queryString(query), bodyHash, timestamp].join("\n");
  return { query, headers: { KEY: apiKey.key, Timestamp: timestamp, SIGN: hmacHex("sha512", apiKey.secret, payload) } };
}
