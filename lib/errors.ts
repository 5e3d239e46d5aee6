/**
 * The one error type of the service, below every domain: thrown by domain code, the API and the
 * account area alike, and turned into the error envelope at each HTTP edge (lib/api/respond.ts).
 * A new code is a contract change: the OpenAPI document describes each (lib/api/openapi/error-responses.ts).
 */
export const ERROR_STATUS = {
  VALIDATION_ERROR: 400,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  IDEMPOTENCY_CONFLICT: 409,
  PAYLOAD_TOO_LARGE: 413,
  RATE_LIMITED: 429,
  INTERNAL_ERROR: 500,
  VENUE_UNAVAILABLE: 503,
} as const;

/** The codes /v1 answers (and its OpenAPI document describes). */
export type ErrorCode = keyof typeof ERROR_STATUS;

/**
 * Codes only the account area's routes (under /api, for the site's own pages) answer; /v1 never
 * does, so its document leaves them out.
 */
export const ACCOUNT_ERROR_STATUS = {
  /** The request contradicts the account's state (e.g. a checkout while a subscription runs). */
  CONFLICT: 409,
  /** The billing provider refused or could not be reached (e.g. Stripe's portal not set up). */
  BILLING_UNAVAILABLE: 503,
} as const;

export type AnyErrorCode = ErrorCode | keyof typeof ACCOUNT_ERROR_STATUS;

const ALL_ERROR_STATUS = { ...ERROR_STATUS, ...ACCOUNT_ERROR_STATUS };

/** The default message of each code; an error may say more (which cause, which field, which address). */
export const DEFAULT_MESSAGES: Record<AnyErrorCode, string> = {
  VALIDATION_ERROR: "Invalid request parameters",
  UNAUTHORIZED: "Invalid or missing API key",
  FORBIDDEN: "Insufficient permissions for this endpoint",
  NOT_FOUND: "Resource not found",
  METHOD_NOT_ALLOWED: "Method not allowed for this endpoint",
  IDEMPOTENCY_CONFLICT: "Idempotency-Key was already used with a different request",
  PAYLOAD_TOO_LARGE: "Request body too large",
  RATE_LIMITED: "Rate limit exceeded",
  INTERNAL_ERROR: "Internal server error",
  VENUE_UNAVAILABLE: "A venue did not answer in time",
  CONFLICT: "The request conflicts with the account's current state",
  BILLING_UNAVAILABLE: "The billing provider is unavailable",
};

/** One refused input field: its dotted path as the caller sent it, and what is wrong with it. */
export interface FieldProblem {
  field: string;
  message: string;
}

/** Marks an AppError whichever copy of this module made it (see AppError's `Symbol.hasInstance`). */
const APP_ERROR = Symbol.for("funding-data.AppError");

export class AppError extends Error {
  readonly status: (typeof ALL_ERROR_STATUS)[AnyErrorCode];
  readonly [APP_ERROR] = true;

  /**
   * `instanceof AppError` by brand, not by class identity: the production server (server.ts, its
   * own bundle) and Next's route bundles each hold a copy of this module, and the services the
   * server builds are shared with Next's routes, so an AppError thrown inside them (a venue's 503
   * from a quote) is another copy's. By prototype it would be "unhandled" there and answer 500.
   */
  static override [Symbol.hasInstance](value: unknown): boolean {
    return typeof value === "object" && value !== null && (value as { [APP_ERROR]?: unknown })[APP_ERROR] === true;
  }

  constructor(
    readonly code: AnyErrorCode,
    message: string = DEFAULT_MESSAGES[code],
    readonly extra: { retryAfter?: number; details?: FieldProblem[]; headers?: Record<string, string> } = {},
  ) {
    super(message);
    this.name = "AppError";
    this.status = ALL_ERROR_STATUS[code];
  }
}

/** A 400 naming the fields the caller must correct; forms highlight exactly these. */
export function invalidFields(details: FieldProblem[], message = "Check the highlighted fields"): AppError {
  return new AppError("VALIDATION_ERROR", message, { details });
}

/** A 400 naming one field. */
export function fieldError(field: string, message: string): AppError {
  return invalidFields([{ field, message }]);
}
