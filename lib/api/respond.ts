import { AppError } from "@/lib/errors";
import { logger } from "@/lib/observability/logger";
import { errorBody, successBody } from "./envelope";

const NO_STORE = { "Cache-Control": "no-store" };
const log = logger("api");

/** A success envelope as a Response (the account area's JSON routes; /v1 writes its own through Hono on the hot path). */
export function jsonSuccess(data: unknown, requestId: string, status = 200, headers: Record<string, string> = {}): Response {
  return Response.json(successBody(data, requestId), {
    status,
    headers: { ...NO_STORE, "X-Request-Id": requestId, ...headers },
  });
}

/**
 * The one error responder of both front doors: any thrown value as the error envelope, with
 * `Retry-After` when the error carries a wait. Unexpected values are logged under the request id
 * and become a 500 that reveals nothing.
 */
export function jsonError(error: unknown, requestId: string, headers: Record<string, string> = {}): Response {
  let appError: AppError;
  if (error instanceof AppError) appError = error;
  else {
    log.error({ err: error, request_id: requestId }, "unhandled error");
    appError = new AppError("INTERNAL_ERROR");
  }
  const retryHeaders: Record<string, string> =
    appError.extra.retryAfter !== undefined ? { "Retry-After": String(appError.extra.retryAfter) } : {};
  return Response.json(errorBody(appError, requestId), {
    status: appError.status,
    headers: { ...NO_STORE, "X-Request-Id": requestId, ...headers, ...retryHeaders, ...appError.extra.headers },
  });
}
