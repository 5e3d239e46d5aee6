import { describe, expect, it } from "vitest";
import { ProgressWriter } from "./progress-writer";

/** A write that ends when the test says, recording what it was given. */
function heldWrites() {
  const written: number[] = [];
  const ends: (() => void)[] = [];
  const write = (value: number) =>
    new Promise<void>((resolve) => {
      written.push(value);
      ends.push(resolve);
    });
  const endNext = async () => {
    ends.shift()?.();
    // The writer's loop takes its next value once the ended write's promise has settled.
    await new Promise((resolve) => setImmediate(resolve));
  };
  return { written, write, endNext, pending: () => ends.length };
}

describe("ProgressWriter", () => {
  it("writes the first value at once and, of those pushed meanwhile, only the newest", async () => {
    const held = heldWrites();
    const writer = new ProgressWriter(held.write, () => undefined);
    writer.push(1);
    writer.push(2);
    writer.push(3);
    expect(held.written).toEqual([1]);
    await held.endNext();
    expect(held.written).toEqual([1, 3]);
    await held.endNext();
    expect(held.pending()).toBe(0);
    writer.push(4);
    expect(held.written).toEqual([1, 3, 4]);
  });

  it("never has two writes in flight", async () => {
    let inFlight = 0;
    let most = 0;
    const writer = new ProgressWriter(async () => {
      inFlight += 1;
      most = Math.max(most, inFlight);
      await new Promise((resolve) => setTimeout(resolve, 1));
      inFlight -= 1;
    }, () => undefined);
    for (let i = 0; i < 20; i++) {
      writer.push(i);
      if (i % 3 === 0) await new Promise((resolve) => setTimeout(resolve, 1));
    }
    await writer.close();
    expect(most).toBe(1);
    expect(inFlight).toBe(0);
  });

  it("on close drops what waits, settles once the write in flight ends, and takes no more", async () => {
    const held = heldWrites();
    const writer = new ProgressWriter(held.write, () => undefined);
    writer.push(1);
    writer.push(2);
    let closed = false;
    const closing = writer.close().then(() => (closed = true));
    await new Promise((resolve) => setImmediate(resolve));
    expect(closed).toBe(false);
    await held.endNext();
    await closing;
    writer.push(3);
    expect(held.written).toEqual([1]);
  });

  it("reports a failed write and goes on with the next value", async () => {
    const errors: unknown[] = [];
    const written: number[] = [];
    const writer = new ProgressWriter(async (value: number) => {
      if (value === 1) throw new Error("lost connection");
      written.push(value);
    }, (error) => errors.push(error));
    writer.push(1);
    writer.push(2);
    await new Promise((resolve) => setImmediate(resolve));
    await writer.close();
    expect(errors).toHaveLength(1);
    expect(written).toEqual([2]);
  });

  it("settles at once when closed with nothing written", async () => {
    const writer = new ProgressWriter(async () => undefined, () => undefined);
    await expect(writer.close()).resolves.toBeUndefined();
  });
});
