import { randomFillSync } from "node:crypto";

const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

// Random bytes drawn 4 KiB at a time: one CSPRNG call per request cost as much as routing it.
const pool = Buffer.alloc(4096);
let next = pool.length;

function randomByte(): number {
  if (next === pool.length) {
    randomFillSync(pool);
    next = 0;
  }
  return pool[next++]!;
}

/** `req_` + 24 base62 characters, uniformly random (bytes ≥ 248 are dropped to avoid bias). */
export function newRequestId(): string {
  let id = "req_";
  while (id.length < 28) {
    const byte = randomByte();
    if (byte < 248) id += BASE62[byte % 62];
  }
  return id;
}
