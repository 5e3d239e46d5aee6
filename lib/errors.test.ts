import { describe, expect, it, vi } from "vitest";
import { AppError, ERROR_STATUS } from "./errors";

describe("AppError", () => {
  it("is recognised by instanceof when another copy of the module made it, as the server's and Next's bundles each hold one", async () => {
    vi.resetModules();
    const copy = await import("./errors");
    expect(copy.AppError).not.toBe(AppError);
    const fromCopy = new copy.AppError("VENUE_UNAVAILABLE", "okx did not answer");
    expect(fromCopy instanceof AppError).toBe(true);
    expect(new AppError("NOT_FOUND") instanceof copy.AppError).toBe(true);
    expect(fromCopy).toMatchObject({ code: "VENUE_UNAVAILABLE", status: 503, message: "okx did not answer" });
  });

  it("is not any other error or value", () => {
    expect(new Error("boom") instanceof AppError).toBe(false);
    expect({ code: "NOT_FOUND", status: 404 } instanceof AppError).toBe(false);
    expect((null as unknown) instanceof AppError).toBe(false);
    expect(("AppError" as unknown) instanceof AppError).toBe(false);
  });
});

describe("the account area's codes", () => {
  it("have their statuses and default texts, and stay out of the /v1 codes its document lists", () => {
    expect(new AppError("CONFLICT")).toMatchObject({ status: 409, message: "The request conflicts with the account's current state" });
    expect(new AppError("BILLING_UNAVAILABLE", "portal off")).toMatchObject({ status: 503, message: "portal off" });
    expect(Object.keys(ERROR_STATUS)).not.toContain("CONFLICT");
    expect(Object.keys(ERROR_STATUS)).not.toContain("BILLING_UNAVAILABLE");
  });
});
