import { readFileSync } from "node:fs";

/** Text of a recorded payload under lib/market/fixtures (see fixtures/SOURCES.md), unaltered. */
export function fixtureText(path: string): string {
  return readFileSync(new URL(`../fixtures/${path}`, import.meta.url), "utf8");
}

export function fixtureJson<T = unknown>(path: string): T {
  return JSON.parse(fixtureText(path)) as T;
}
