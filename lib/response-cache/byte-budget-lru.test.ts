import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ByteBudgetLru } from "./byte-budget-lru";

describe("ByteBudgetLru", () => {
  it("evicts the least recently used entries once the bytes exceed the budget", () => {
    const lru = new ByteBudgetLru<string>(100);
    lru.set("a", "A", 40);
    lru.set("b", "B", 40);
    expect(lru.get("a")).toBe("A"); // a is now the most recent
    lru.set("c", "C", 40);
    expect(lru.get("b")).toBeUndefined();
    expect(lru.get("a")).toBe("A");
    expect(lru.get("c")).toBe("C");
    expect(lru.stats()).toEqual({ entries: 2, bytes: 80, max_bytes: 100, evictions: 1 });
  });

  it("does not keep a value bigger than the whole budget, nor anything with a budget of 0", () => {
    const lru = new ByteBudgetLru<string>(100);
    lru.set("small", "s", 10);
    lru.set("huge", "h", 101);
    expect(lru.get("huge")).toBeUndefined();
    expect(lru.get("small")).toBe("s");
    const off = new ByteBudgetLru<string>(0);
    off.set("x", "x", 1);
    expect(off.stats().entries).toBe(0);
  });

  it("replaces a key's value and size, and resizes only the value still stored", () => {
    const lru = new ByteBudgetLru<string>(100);
    lru.set("a", "old", 30);
    lru.set("a", "new", 50);
    expect(lru.stats().bytes).toBe(50);
    lru.resize("a", "old", 90);
    expect(lru.stats().bytes).toBe(50);
    lru.set("b", "B", 40);
    lru.resize("a", "new", 70); // grows, becomes the most recent, pushes b out
    expect(lru.get("b")).toBeUndefined();
    expect(lru.stats()).toMatchObject({ entries: 1, bytes: 70 });
  });

  it("drops the entries a predicate picks", () => {
    const lru = new ByteBudgetLru<number>(100);
    for (let i = 0; i < 5; i++) lru.set(`k${i}`, i, 10);
    lru.deleteWhere((_, value) => value % 2 === 0);
    expect(lru.stats()).toMatchObject({ entries: 2, bytes: 20 });
    expect(lru.get("k1")).toBe(1);
  });

  it("never holds more than its budget, and counts exactly what it holds", () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.constantFrom("a", "b", "c", "d", "e", "f"), fc.integer({ min: 0, max: 60 }), fc.boolean()), { maxLength: 80 }),
        (operations) => {
          const lru = new ByteBudgetLru<number>(100);
          const sizes = new Map<string, number>();
          for (const [key, bytes, read] of operations) {
            if (read) {
              lru.get(key);
              continue;
            }
            lru.set(key, bytes, bytes);
            sizes.set(key, bytes);
          }
          const { bytes, entries } = lru.stats();
          expect(bytes).toBeLessThanOrEqual(100);
          let held = 0;
          let count = 0;
          for (const key of sizes.keys()) {
            const value = lru.get(key);
            if (value !== undefined) {
              held += value;
              count++;
            }
          }
          expect(held).toBe(bytes);
          expect(count).toBe(entries);
        },
      ),
    );
  });
});
