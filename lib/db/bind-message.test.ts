import { serialize } from "pg-protocol";
import pg from "pg";
import { describe, expect, it } from "vitest";
import { bindMessagePieces, type BindConfig } from "./bind-message";

// node-postgres's own mapping of a query's values, as its Query passes it to the connection.
const valueMapper = (pg as unknown as { utils: { prepareValue(value: unknown): unknown } }).utils.prepareValue;

const large = (bytes: number, fill: number) => Buffer.alloc(bytes, fill);

describe("bindMessagePieces", () => {
  const cases: [string, BindConfig][] = [
    ["no values", { values: [] }],
    ["texts, numbers, nulls and small bytes", { values: ["a", 1.5, null, undefined, "ünïcödé €", Buffer.from([1, 2, 3]), true], valueMapper }],
    ["large bytes among small values, a portal and a statement name", { portal: "p1", statement: "round", values: [large(20_000, 7), "x", large(100_000, 9), null, large(16 * 1024, 1)], valueMapper }],
    ["a large text and binary results", { values: ["t".repeat(50_000), new Date(Date.UTC(2026, 11, 6, 17, 0, 0, 123))], binary: true, valueMapper }],
    ["typed arrays and arrays", { values: [new Float64Array([1, 2, 3]), ["a", "b", null], { key: "value" }], valueMapper }],
  ];
  it.each(cases)("gives node-postgres's own message, byte for byte: %s", (_, config) => {
    expect(Buffer.concat(bindMessagePieces(config)).equals(serialize.bind({ ...config, values: config.values as unknown[] }))).toBe(true);
  });

  it("writes a large value as the very buffer given, not a copy, and everything else in as few pieces as fit between them", () => {
    const first = large(20_000, 7);
    const second = large(100_000, 9);
    const pieces = bindMessagePieces({ values: [first, "x", second, "y"], valueMapper });
    expect(pieces).toHaveLength(5);
    expect(pieces[1]).toBe(first);
    expect(pieces[3]).toBe(second);
  });

  it("throws when a value cannot be mapped, as node-postgres does", () => {
    const circular: Record<string, unknown> = {};
    circular.self = circular;
    expect(() => bindMessagePieces({ values: ["a", circular], valueMapper })).toThrow();
  });
});
