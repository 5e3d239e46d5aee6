import type { components } from "./openapi-types.js";

/** The API's error codes, as the OpenAPI document lists them. */
export type ApiErrorCode = components["schemas"]["ErrorEnvelope"]["error"]["code"];

/**
 * A failed call: the API's error envelope as an exception. `code` is stable (match on it, not on
 * `message`); `requestId` is what to quote when reporting a problem. `UNEXPECTED_RESPONSE` is for
 * an answer that is not the API's JSON (a proxy's error page, say).
 */
export class FundingDataError extends Error {
  constructor(
    readonly code: ApiErrorCode | "UNEXPECTED_RESPONSE",
    message: string,
    readonly status: number,
    readonly requestId: string | null,
    /** Seconds to wait, on RATE_LIMITED. */
    readonly retryAfter?: number,
    /** Invalid fields, on VALIDATION_ERROR. */
    readonly details?: { field: string; message: string }[],
  ) {
    super(`${code} (${status}): ${message}${requestId ? ` [${requestId}]` : ""}`);
    this.name = "FundingDataError";
  }
}
