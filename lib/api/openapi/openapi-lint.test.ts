import { createConfig, lintFromString } from "@redocly/openapi-core";
import { Document, Spectral, type RulesetDefinition } from "@stoplight/spectral-core";
import parsers from "@stoplight/spectral-parsers";
import { oas } from "@stoplight/spectral-rulesets";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createApiApp } from "@/lib/api/app";
import { OPENAPI_PATH } from "./openapi-document";

// The two linters API tooling most often runs, with their stock rule sets: what a team adopting the
// API would see. Linted as served to a deployment with a configured public URL (an unconfigured one
// names localhost, which Redocly rightly warns about).
const PUBLIC_URL = "https://funding-data.test";
let text: string;

beforeAll(async () => {
  // Linting must never reach the network: the document has no external reference to fetch (checked
  // below), Redocly sends no telemetry when told so, and a fetch would fail the test rather than leave.
  vi.stubEnv("REDOCLY_TELEMETRY", "off");
  vi.stubGlobal("fetch", () => Promise.reject(new Error("the linters must work offline")));
  vi.stubEnv("PUBLIC_URL", PUBLIC_URL);
  const app = createApiApp(() => {
    throw new Error("serving the document needs no services");
  });
  const response = await app.fetch(new Request(`http://localhost${OPENAPI_PATH}`));
  expect(response.status).toBe(200);
  text = JSON.stringify(await response.json(), null, 2);
});
afterAll(() => {
  vi.unstubAllEnvs();
  vi.unstubAllGlobals();
});

describe("the served OpenAPI document", () => {
  it("refers to nothing outside itself", () => {
    const refs = [...text.matchAll(/"\$ref": "([^"]*)"/g)].map((match) => match[1]!);
    expect(refs.length).toBeGreaterThan(0);
    expect(refs.filter((ref) => !ref.startsWith("#/"))).toEqual([]);
    expect(JSON.parse(text).servers).toEqual([expect.objectContaining({ url: PUBLIC_URL })]);
  });

  it("passes Spectral's oas ruleset with no error and no warning", async () => {
    const spectral = new Spectral();
    spectral.setRuleset({ extends: [oas as RulesetDefinition] });
    const results = await spectral.run(new Document(text, parsers.Json, "openapi.json"));
    const findings = results.map((r) => `${r.code} at ${r.path.join(".")}: ${r.message}`);
    // Severity 0 is an error, 1 a warning; information and hints are not findings.
    expect(findings.filter((_, i) => results[i]!.severity <= 1)).toEqual([]);
  });

  it("passes Redocly's recommended ruleset with no error and no warning", async () => {
    const config = await createConfig({ extends: ["recommended"] });
    const problems = await lintFromString({ source: text, absoluteRef: `${PUBLIC_URL}${OPENAPI_PATH}`, config });
    expect(problems.map((p) => `${p.severity} ${p.ruleId} at ${p.location[0]?.pointer}: ${p.message}`)).toEqual([]);
  });
});
