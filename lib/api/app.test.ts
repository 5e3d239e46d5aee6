import { describe, expect, it } from "vitest";
import { createApiApp } from "./app";
import { newRequestId } from "./request-id";

const app = createApiApp();

describe("the API app shell", () => {
  it("answers an unauthenticated request with the error envelope, request id in body and header", async () => {
    const response = await app.fetch(new Request("http://localhost/v1/nothing-here?x=1"));
    expect(response.status).toBe(401);
    expect(response.headers.get("content-type")).toMatch(/^application\/json/);
    expect(response.headers.get("www-authenticate")).toBe("Bearer");
    const body = await response.json();
    expect(body).toEqual({
      error: { code: "UNAUTHORIZED", message: "Invalid or missing API key: the Authorization header is missing" },
      meta: { timestamp: expect.any(String), request_id: response.headers.get("x-request-id") },
    });
    expect(body.meta.timestamp).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    expect(Date.parse(body.meta.timestamp)).toBeGreaterThan(Date.now() - 60_000);
  });

  it("gives every request its own id", async () => {
    const [a, b] = await Promise.all([app.fetch(new Request("http://localhost/v1")), app.fetch(new Request("http://localhost/v1"))]);
    expect(a!.headers.get("x-request-id")).not.toBe(b!.headers.get("x-request-id"));
  });
});

describe("request ids", () => {
  it("are req_ followed by 24 base62 characters", () => {
    for (let i = 0; i < 1000; i++) expect(newRequestId()).toMatch(/^req_[0-9A-Za-z]{24}$/);
  });

  it("never repeat, across many refills of the random pool", () => {
    const ids = new Set(Array.from({ length: 20_000 }, () => newRequestId()));
    expect(ids.size).toBe(20_000);
  });
});
