import { lookup as dnsLookup } from "node:dns/promises";
import http from "node:http";
import https from "node:https";
import { isIP, type LookupFunction } from "node:net";
import { forbiddenAddressReason } from "./address-policy";
import { readWebhookConfig } from "./webhook-config";

/** What one attempt found: the answer's status (null when there was none), or why it failed. */
export interface AttemptResult {
  statusCode: number | null;
  error: string | null;
  latencyMs: number;
  /** The first RESPONSE_BODY_BYTES of the answer's body, as text. */
  responseBody: string | null;
  ok: boolean;
}

export interface SendOptions {
  /** WEBHOOK_ALLOW_PRIVATE_URLS: private, loopback … addresses, plain http and any port are allowed. */
  allowPrivate: boolean;
  /** WEBHOOK_ALLOWED_PORTS: the ports a URL may name otherwise; default the configured ones (443 and 80). */
  allowedPorts?: readonly number[];
  timeoutMs: number;
  /** Name resolution; the system resolver by default. */
  resolve?: (hostname: string) => Promise<{ address: string; family: number }[]>;
}

export const RESPONSE_BODY_BYTES = 1_024;
const USER_AGENT = "FundingDataService-Webhooks/1";

const systemResolve = (hostname: string) => dnsLookup(hostname, { all: true, verbatim: true });

/**
 * POSTs one signed event. The host name is resolved here, every address it has is checked against
 * the address policy, and the connection goes to the address that was checked (a custom `lookup`),
 * so a DNS answer that changes between the check and the connection (rebinding) cannot reach an
 * address the check refused; TLS still verifies the certificate against the host name. Redirects
 * are not followed: a 3xx is a failed attempt like any answer outside 2xx. The whole attempt,
 * resolution included, has `timeoutMs`.
 */
export async function sendWebhook(url: string, headers: Record<string, string>, body: string, options: SendOptions): Promise<AttemptResult> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const failed = (error: string, statusCode: number | null = null, responseBody: string | null = null): AttemptResult => ({
    statusCode,
    error,
    latencyMs: elapsed(),
    responseBody,
    ok: false,
  });
  const target = new URL(url);
  const problem = urlProblem(target, options.allowPrivate, options.allowedPorts);
  if (problem) return failed(problem);

  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), options.timeoutMs);
  try {
    const host = target.hostname.replace(/^\[|\]$/g, "");
    let addresses: { address: string; family: number }[];
    if (isIP(host)) addresses = [{ address: host, family: isIP(host) }];
    else {
      try {
        addresses = await withAbort((options.resolve ?? systemResolve)(host), controller.signal);
      } catch (error) {
        if (controller.signal.aborted) return failed(`timed out after ${options.timeoutMs} ms`);
        return failed(`could not resolve ${host}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
      }
    }
    if (addresses.length === 0) return failed(`could not resolve ${host}`);
    // The log says no more than that: which address a name has inside the service's network is
    // not the endpoint owner's to learn.
    if (!options.allowPrivate && addresses.some(({ address }) => forbiddenAddressReason(address))) return failed(REFUSED_PRIVATE);
    const chosen = addresses[0]!;
    const lookup: LookupFunction = (_hostname, lookupOptions, callback) => {
      if (lookupOptions.all) (callback as (e: null, a: { address: string; family: number }[]) => void)(null, [chosen]);
      else callback(null, chosen.address, chosen.family);
    };
    const answer = await post(target, { ...headers, "content-type": "application/json", "user-agent": USER_AGENT }, body, lookup, controller.signal);
    const ok = answer.statusCode >= 200 && answer.statusCode < 300;
    if (ok) return { statusCode: answer.statusCode, error: null, latencyMs: elapsed(), responseBody: answer.body, ok };
    const error = answer.statusCode >= 300 && answer.statusCode < 400 ? "redirect not followed" : `HTTP ${answer.statusCode}`;
    return failed(error, answer.statusCode, answer.body);
  } catch (error) {
    if (controller.signal.aborted) return failed(`timed out after ${options.timeoutMs} ms`);
    return failed(describeError(error));
  } finally {
    clearTimeout(timer);
  }
}

/** What an attempt records when the URL's name resolves to an address the policy refuses. */
export const REFUSED_PRIVATE = "refused: resolves to a private address";

let configuredPorts: readonly number[] | undefined;
/** WEBHOOK_ALLOWED_PORTS, read once per process. */
export function defaultAllowedPorts(): readonly number[] {
  configuredPorts ??= readWebhookConfig().WEBHOOK_ALLOWED_PORTS;
  return configuredPorts;
}

/**
 * Why a URL can never be delivered to (scheme, credentials, a port outside `allowedPorts`, a
 * literal address the policy refuses), or null. With `allowPrivate` any port is allowed: that
 * switch already lets an endpoint reach anything on the service's network.
 */
export function urlProblem(url: URL, allowPrivate: boolean, allowedPorts: readonly number[] = defaultAllowedPorts()): string | null {
  if (url.protocol !== "https:" && !(allowPrivate && url.protocol === "http:")) {
    return allowPrivate ? "The URL must start with https:// or http://" : "The URL must start with https://";
  }
  if (url.username || url.password) return "The URL must not contain credentials";
  if (allowPrivate) return null;
  const port = url.port === "" ? (url.protocol === "https:" ? 443 : 80) : Number(url.port);
  if (!allowedPorts.includes(port)) return `The URL's port must be one of ${allowedPorts.join(", ")}`;
  const host = url.hostname.replace(/^\[|\]$/g, "");
  if (host === "localhost" || host.endsWith(".localhost")) return "The URL must not point at this machine (localhost)";
  if (isIP(host)) {
    const reason = forbiddenAddressReason(host);
    if (reason) return `The URL's address is not public (${reason})`;
  }
  return null;
}

function post(
  url: URL,
  headers: Record<string, string>,
  body: string,
  lookup: LookupFunction,
  signal: AbortSignal,
): Promise<{ statusCode: number; body: string }> {
  const client = url.protocol === "https:" ? https : http;
  return new Promise((resolve, reject) => {
    const request = client.request(
      url,
      { method: "POST", headers: { ...headers, "content-length": String(Buffer.byteLength(body)) }, lookup, signal, agent: false },
      (response) => {
        const chunks: Buffer[] = [];
        let size = 0;
        const finish = () => {
          response.destroy();
          const text = Buffer.concat(chunks).subarray(0, RESPONSE_BODY_BYTES).toString("utf8").replace(/\u0000/g, "");
          resolve({ statusCode: response.statusCode ?? 0, body: text });
        };
        response.on("data", (chunk: Buffer) => {
          chunks.push(chunk);
          size += chunk.length;
          // Only the first kilobyte is kept: a receiver answering without end must not hold the attempt.
          if (size >= RESPONSE_BODY_BYTES) finish();
        });
        response.on("end", finish);
        response.on("error", reject);
      },
    );
    request.on("error", reject);
    request.end(body);
  });
}

function withAbort<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(new Error("aborted"));
    signal.addEventListener("abort", () => reject(new Error("aborted")), { once: true });
    promise.then(resolve, reject);
  });
}

function describeError(error: unknown): string {
  const code = (error as NodeJS.ErrnoException).code;
  const message = error instanceof Error ? error.message : String(error);
  return (code && !message.includes(code) ? `${code}: ${message}` : message).slice(0, 500);
}
