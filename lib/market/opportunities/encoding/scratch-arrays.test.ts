import { describe, expect, it } from "vitest";
import { newArray, OVERWRITTEN, PublishedArrays, ScratchArrays } from "./scratch-arrays";

describe("ScratchArrays", () => {
  it("hands each run the buffers of the run before, in the order taken, zeroed like new arrays", () => {
    const scratch = new ScratchArrays();
    let take = scratch.newRun();
    const first = [take(Uint32Array, 100), take(Float64Array, 50)] as const;
    first[0].fill(7);
    first[1].fill(-1.5);
    take = scratch.newRun();
    const second = [take(Uint32Array, 90), take(Float64Array, 50)] as const;
    expect(second[0].buffer).toBe(first[0].buffer);
    expect(second[1].buffer).toBe(first[1].buffer);
    expect(second[0]).toEqual(new Uint32Array(90));
    expect(second[1]).toEqual(new Float64Array(50));
  });

  it("hands an array its caller overwrites as the run before left it", () => {
    const scratch = new ScratchArrays();
    scratch.newRun()(Uint32Array, 10).fill(7);
    const again = scratch.newRun()(Uint32Array, 10, OVERWRITTEN);
    expect([...again]).toEqual(new Array(10).fill(7));
  });

  it("never hands out one buffer twice in a run, and makes a larger one where the last run's is too small", () => {
    const scratch = new ScratchArrays();
    const take = scratch.newRun();
    const small = take(Uint8Array, 8);
    const other = take(Uint8Array, 8);
    expect(other.buffer).not.toBe(small.buffer);
    const large = scratch.newRun()(Uint8Array, 10_000);
    expect(large.buffer).not.toBe(small.buffer);
    expect(large).toHaveLength(10_000);
    expect(large.every((value) => value === 0)).toBe(true);
  });

  it("gives arrays of the type and length asked for, as new arrays do", () => {
    for (const take of [new ScratchArrays().newRun(), newArray]) {
      const array = take(Float64Array, 3);
      expect(array).toBeInstanceOf(Float64Array);
      expect(array).toHaveLength(3);
      expect(array.byteOffset).toBe(0);
    }
  });
});

describe("PublishedArrays", () => {
  it("never hands a run the memory of the set last published, and hands it back once another set is published", () => {
    const arrays = new PublishedArrays();
    const first = arrays.newRun();
    const a = first.take(Float64Array, 100).fill(1);
    first.published();
    const second = arrays.newRun();
    const b = second.take(Float64Array, 100).fill(2);
    expect(b.buffer).not.toBe(a.buffer);
    second.published();
    const third = arrays.newRun();
    const c = third.take(Float64Array, 100);
    expect(c.buffer).toBe(a.buffer);
    expect(c).toEqual(new Float64Array(100));
    expect(b.every((value) => value === 2)).toBe(true);
  });

  it("takes an unpublished run's memory again, the published set's left as it is", () => {
    const arrays = new PublishedArrays();
    const first = arrays.newRun();
    const a = first.take(Uint32Array, 10).fill(7);
    first.published();
    const failed = arrays.newRun().take(Uint32Array, 10).fill(9);
    const next = arrays.newRun();
    const c = next.take(Uint32Array, 10);
    expect(c.buffer).toBe(failed.buffer);
    expect(c.buffer).not.toBe(a.buffer);
    expect(a.every((value) => value === 7)).toBe(true);
  });
});
