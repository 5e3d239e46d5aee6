import { describe, expect, it } from "vitest";
import { routeRequest } from "./paths";

describe("routeRequest: the one routing decision of server.ts", () => {
  it.each([
    ["/v1", "/v1"],
    ["/v1/", "/v1/"],
    ["/v1/opportunities?limit=5", "/v1/opportunities?limit=5"],
    ["/v1?x", "/v1?x"],
    ["/healthz", "/healthz"],
    ["/healthz?verbose", "/healthz?verbose"],
    ["/metrics", "/metrics"],
    ["/./%6detrics", "/metrics"],
    // Spellings a URL parser, Next or Hono reads as /v1…: each reaches the API with the canonical path.
    ["/./v1/opportunities", "/v1/opportunities"],
    ["/x/../v1/opportunities", "/v1/opportunities"],
    ["/api/../v1/opportunities", "/v1/opportunities"],
    ["/%2e/v1/opportunities", "/v1/opportunities"],
    ["/%2E%2E/v1/opportunities", "/v1/opportunities"],
    ["/a/.%2e/v1/opportunities", "/v1/opportunities"],
    ["/v1/./opportunities", "/v1/opportunities"],
    ["/v1/x/../opportunities?limit=1", "/v1/opportunities?limit=1"],
    ["//v1/opportunities", "/v1/opportunities"],
    ["///v1//opportunities", "/v1/opportunities"],
    ["\\v1\\opportunities", "/v1/opportunities"],
    ["/\\v1/opportunities", "/v1/opportunities"],
    ["/x\\..\\v1/opportunities", "/v1/opportunities"],
    ["/v%31/opportunities", "/v1/opportunities"],
    ["/%76%31/opportunities", "/v1/opportunities"],
    ["/v1/%6fpportunities", "/v1/opportunities"],
    ["/%68ealthz", "/healthz"],
    ["/./healthz", "/healthz"],
    ["http://localhost/v1/opportunities", "/v1/opportunities"],
    ["http://localhost./v1/opportunities?limit=2", "/v1/opportunities?limit=2"],
    ["HTTP://evil.example/./v1/opportunities", "/v1/opportunities"],
    // Spelled only with encoded separators: still the API's (which answers 404), never Next's.
    ["/%2Fv1/opportunities", "/%2Fv1/opportunities"],
    ["/v1%2Fopportunities", "/v1%2Fopportunities"],
    ["/x%2F..%2Fv1/opportunities", "/x%2F..%2Fv1/opportunities"],
    ["/%5Cv1/opportunities", "/%5Cv1/opportunities"],
    ["/x/..%2Fv1/opportunities", "/x/..%2Fv1/opportunities"],
    // Reserved characters stay encoded, as the API's router reads them.
    ["/v1/opportunities/BTC%2FUSDT", "/v1/opportunities/BTC%2FUSDT"],
  ])("%s → the API as %s", (raw, url) => {
    expect(routeRequest(raw)).toEqual({ to: "api", url });
  });

  it.each([
    "/",
    "/v10",
    "/v1x/opportunities",
    "/V1/opportunities",
    "/account/api-keys",
    "/healthzz",
    "/healthz/",
    "/metrics/",
    "/metricsx",
    "/docs?path=/v1/opportunities",
    "/v1/../account",
    "/v1/..",
    "/api/auth/session",
    "/_next/static/chunks/app.js",
    "/v%2531/opportunities", // decodes once to /v%31/: not /v1 to anything that decodes once
    "*",
  ])("%s → Next", (raw) => {
    expect(routeRequest(raw)).toEqual({ to: "next" });
  });

  it.each([
    "/api/portfolio/positions/%E0%A4%A",
    "/account/api-keys/%zz",
    "/v1/opportunities/%",
    "/v1/opportunities/%C0%AF",
    "/%FF",
    "ftp://localhost/v1/opportunities",
    "localhost/v1",
    "http://[::1/v1",
  ])("%s → refused as a bad request", (raw) => {
    expect(routeRequest(raw)).toMatchObject({ to: "bad-request" });
  });
});
