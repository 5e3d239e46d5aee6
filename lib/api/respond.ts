import { errorBody, successBody } from "./envelope";
import { ApiError } from "./errors";

const NO_STORE = { "Cache-Control": "no-store" };

export function jsonSuccess(data: unknown, requestId: string, status = 200, headers: Record<string, string> = {}): Response {
  return Response.json(successBody(data, requestId), {
    status,
    headers: { ...NO_STORE, "X-Request-Id": requestId, ...headers },
  });
}

/** Any thrown value as the error envelope; unexpected ones become a 500 that reveals nothing. */
export function jsonError(error: unknown, requestId: string, headers: Record<string, string> = {}): Response {
  let apiError: ApiError;
  if (error instanceof ApiError) apiError = error;
  else {
    console.error(`[${requestId}] unhandled error`, error);
    apiError = new ApiError("INTERNAL_ERROR");
  }
  const retryHeaders: Record<string, string> =
    apiError.extra.retryAfter !== undefined ? { "Retry-After": String(apiError.extra.retryAfter) } : {};
  return Response.json(errorBody(apiError, requestId), {
    status: apiError.status,
    headers: { ...NO_STORE, "X-Request-Id": requestId, ...retryHeaders, ...apiError.extra.headers, ...headers },
  });
}
