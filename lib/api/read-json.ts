import type { z } from "zod";
import { AppError } from "@/lib/errors";
import { parseInput } from "@/lib/validation";

export const MAX_BODY_BYTES = 64 * 1024;

/** Reads a JSON request body and validates it: every failure is a 400 VALIDATION_ERROR with details. */
export async function readJson<S extends z.ZodType>(request: Request, schema: S): Promise<z.infer<S>> {
  return (await readJsonBody(request, schema)).value;
}

/**
 * A body whose every field is optional (its schema accepts `{}`) may be left out: no body at all,
 * with or without a Content-Type, reads as `{}`. Anything sent is read as JSON.
 */
export function bodyIsOptional(schema: z.ZodType): boolean {
  return schema.safeParse({}).success;
}

/** As readJson, also giving the body's text as sent (what an Idempotency-Key's fingerprint hashes). */
export async function readJsonBody<S extends z.ZodType>(request: Request, schema: S): Promise<{ value: z.infer<S>; text: string }> {
  const type = request.headers.get("content-type") ?? "";
  if (bodyIsOptional(schema)) {
    // Read first: whether a body was sent decides whether its Content-Type matters.
    const text = await readBodyText(request);
    if (text.trim() === "") return { value: parseInput(schema, {}), text };
    return parsedJson(schema, type, text);
  }
  // Refused before reading: a body of another type is never buffered.
  if (!isJson(type)) throw notJson();
  return parsedJson(schema, type, await readBodyText(request));
}

const isJson = (type: string) => /^application\/json\b/i.test(type);

function notJson() {
  return new AppError("VALIDATION_ERROR", "Send the body as JSON", {
    details: [{ field: "content-type", message: "Content-Type must be application/json" }],
  });
}

function parsedJson<S extends z.ZodType>(schema: S, type: string, text: string): { value: z.infer<S>; text: string } {
  if (!isJson(type)) throw notJson();
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new AppError("VALIDATION_ERROR", "Malformed JSON", { details: [{ field: "body", message: "Body is not valid JSON" }] });
  }
  return { value: parseInput(schema, value), text };
}

/**
 * The request body as text, at most MAX_BODY_BYTES of it: a declared length over the limit is
 * refused before anything is read, and a chunked body stops being read (and buffered) the moment
 * it passes the limit, so no caller can make the process hold more than that per request.
 */
export async function readBodyText(request: Request): Promise<string> {
  if (Number(request.headers.get("content-length") ?? 0) > MAX_BODY_BYTES) throw tooLarge();
  if (!request.body) return "";
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > MAX_BODY_BYTES) {
      // Only frees the body: the answer is 413 whether or not cancelling it fails.
      await reader.cancel().catch(() => undefined);
      throw tooLarge();
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString("utf8");
}

function tooLarge() {
  return new AppError("VALIDATION_ERROR", "Request body too large", {
    details: [{ field: "body", message: `Body must be at most ${MAX_BODY_BYTES} bytes` }],
  });
}
