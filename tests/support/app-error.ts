import { expect } from "vitest";
import { AppError, type AnyErrorCode } from "@/lib/errors";

/**
 * The AppError `promise` rejects with, after checking that it rejects, with an AppError, and with
 * `code` when one is named: the test fails on anything else.
 */
export async function appErrorFrom(promise: Promise<unknown>, code?: AnyErrorCode): Promise<AppError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AppError);
  if (code !== undefined) expect((error as AppError).code).toBe(code);
  return error as AppError;
}
