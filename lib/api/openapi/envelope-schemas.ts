import { z } from "zod";
import { ERROR_STATUS, type ErrorCode } from "@/lib/errors";

/** `meta` of every /v1 answer; routes may add fields beside these two. */
export const metaSchema = z.object({
  timestamp: z.iso.datetime().describe("ISO 8601 UTC with milliseconds, e.g. 2026-11-21T19:04:05.123Z."),
  request_id: z.string().regex(/^req_[0-9A-Za-z]{24}$/).describe("Also sent as the X-Request-Id header; quote it when reporting a problem."),
});

const ERROR_CODES = Object.keys(ERROR_STATUS) as [ErrorCode, ...ErrorCode[]];

/** The error envelope of lib/api/envelope.ts, for the document. */
export const errorEnvelopeSchema = z.object({
  error: z.object({
    code: z.enum(ERROR_CODES).describe("Stable machine-readable code; its HTTP status is fixed (see the error responses)."),
    message: z.string().describe("Human-readable text; may change, do not match on it."),
    retry_after: z.number().int().min(1).optional().describe("Seconds to wait before retrying; only on RATE_LIMITED."),
    details: z
      .array(z.object({ field: z.string(), message: z.string() }))
      .optional()
      .describe("One entry per invalid field; only on VALIDATION_ERROR."),
  }),
  meta: metaSchema,
});
