import { z } from "zod";

/**
 * What a request's status counts as: a success (2xx, and 3xx such as a 304, which answered the
 * question), a client error (4xx other than 429), a refusal by the rate limiter (429), or a
 * server error (5xx). The indexes of a counts tuple, in this order.
 */
export const SUCCESS = 0;
export const CLIENT_ERROR = 1;
export const RATE_LIMITED = 2;
export const SERVER_ERROR = 3;
export type StatusClass = typeof SUCCESS | typeof CLIENT_ERROR | typeof RATE_LIMITED | typeof SERVER_ERROR;

export function statusClass(status: number): StatusClass {
  if (status === 429) return RATE_LIMITED;
  if (status >= 500) return SERVER_ERROR;
  if (status >= 400) return CLIENT_ERROR;
  return SUCCESS;
}

/** Requests by outcome, as the API and the pages show them. */
export const usageCountsSchema = z.object({
  requests: z.number().int().nonnegative().describe("Every request: the sum of the four below."),
  successes: z.number().int().nonnegative().describe("Answered 2xx or 304 Not Modified."),
  client_errors: z.number().int().nonnegative().describe("Answered 4xx other than 429: invalid input, a missing permission, an unknown id or path."),
  rate_limited: z.number().int().nonnegative().describe("Refused 429 RATE_LIMITED by the key's per-minute limit."),
  server_errors: z.number().int().nonnegative().describe("Answered 5xx."),
});
export type UsageCounts = z.infer<typeof usageCountsSchema>;

export function emptyCounts(): UsageCounts {
  return { requests: 0, successes: 0, client_errors: 0, rate_limited: 0, server_errors: 0 };
}

/** Adds `more` into `into` (mutating it) and returns it. */
export function addCounts(into: UsageCounts, more: Omit<UsageCounts, "requests">): UsageCounts {
  into.successes += more.successes;
  into.client_errors += more.client_errors;
  into.rate_limited += more.rate_limited;
  into.server_errors += more.server_errors;
  into.requests = into.successes + into.client_errors + into.rate_limited + into.server_errors;
  return into;
}
