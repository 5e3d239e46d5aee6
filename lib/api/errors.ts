/** Every error code the API can answer with, and its HTTP status (DESIGN.md's table). */
export const ERROR_STATUS = {
  VALIDATION_ERROR: 400,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  IDEMPOTENCY_CONFLICT: 409,
  RATE_LIMITED: 429,
  INTERNAL_ERROR: 500,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

/** The spec's fixed message texts, where it gives one. */
export const DEFAULT_MESSAGES: Record<ErrorCode, string> = {
  VALIDATION_ERROR: "Invalid request parameters",
  UNAUTHORIZED: "Invalid or missing API key",
  FORBIDDEN: "Insufficient permissions for this endpoint",
  NOT_FOUND: "Resource not found",
  METHOD_NOT_ALLOWED: "Method not allowed for this endpoint",
  IDEMPOTENCY_CONFLICT: "Idempotency-Key was already used with a different request",
  RATE_LIMITED: "Rate limit exceeded",
  INTERNAL_ERROR: "Internal server error",
};

export interface FieldProblem {
  field: string;
  message: string;
}

/** The one error type of the API: thrown anywhere, turned into the error envelope at the edge. */
export class ApiError extends Error {
  readonly status: (typeof ERROR_STATUS)[ErrorCode];

  constructor(
    readonly code: ErrorCode,
    message: string = DEFAULT_MESSAGES[code],
    readonly extra: { retryAfter?: number; details?: FieldProblem[]; headers?: Record<string, string> } = {},
  ) {
    super(message);
    this.name = "ApiError";
    this.status = ERROR_STATUS[code];
  }
}
