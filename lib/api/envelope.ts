import { AppError, type AnyErrorCode, type FieldProblem } from "@/lib/errors";

export interface Meta {
  timestamp: string;
  request_id: string;
  [extra: string]: unknown;
}

export interface SuccessBody<T> {
  data: T;
  meta: Meta;
}

export interface ErrorBody {
  error: { code: AnyErrorCode; message: string; retry_after?: number; details?: FieldProblem[] };
  meta: Meta;
}

export function meta(requestId: string, extra: Record<string, unknown> = {}): Meta {
  return { timestamp: new Date().toISOString(), request_id: requestId, ...extra };
}

export function successBody<T>(data: T, requestId: string, extra?: Record<string, unknown>): SuccessBody<T> {
  return { data, meta: meta(requestId, extra) };
}

/** The success envelope as text around data already serialised, identical to `JSON.stringify(successBody(…))`. */
export function successBodyText(dataJson: string, requestId: string, extra?: Record<string, unknown>): string {
  return `{"data":${dataJson},"meta":${JSON.stringify(meta(requestId, extra))}}`;
}

/**
 * `successBodyText` split around the two fields that differ on every response: the text is
 * `before + responseMeta(timestamp, requestId) + after`, byte for byte, so an answer can be kept
 * with everything but meta's timestamp and request id written once (lib/api/cached-read.ts).
 */
export function envelopeAround(dataJson: string, extra?: Record<string, unknown>): { before: string; after: string } {
  const fields = JSON.stringify(extra ?? {}).slice(1, -1);
  return { before: `{"data":${dataJson},"meta":{"timestamp":"`, after: `${fields && `,${fields}`}}}` };
}

/** What goes between `envelopeAround`'s two parts for one response. */
export function responseMeta(timestamp: string, requestId: string): string {
  return `${timestamp}","request_id":"${requestId}"`;
}

export function errorBody(error: AppError, requestId: string): ErrorBody {
  return {
    error: {
      code: error.code,
      message: error.message,
      ...(error.extra.retryAfter !== undefined && { retry_after: error.extra.retryAfter }),
      ...(error.extra.details && { details: error.extra.details }),
    },
    meta: meta(requestId),
  };
}
