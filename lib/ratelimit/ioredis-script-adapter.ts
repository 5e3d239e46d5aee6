import { createHash } from "node:crypto";
import type { Redis as IoRedis } from "ioredis";
import { stripLuaShebang } from "./strip-lua-shebang";

/**
 * The part of the `@upstash/redis` client that `Ratelimit.slidingWindow` calls: `evalsha`
 * first, and `eval` when the error text contains NOSCRIPT (see `safeEval` in its dist).
 */
export interface UpstashScriptClient {
  evalsha(sha1: string, keys: string[], args: unknown[]): Promise<unknown>;
  eval(script: string, keys: string[], args: unknown[]): Promise<unknown>;
}

export type IoredisScriptClient = Pick<IoRedis, "eval" | "evalsha" | "status" | "once" | "off">;

/**
 * Lets @upstash/ratelimit drive any Redis through ioredis. Upstash calls `evalsha` with the SHA1
 * of its original script, which open-source Redis can never hold because it refuses the
 * shebang line; so scripts go to Redis stripped, and the original hash is mapped to the hash of
 * the stripped text. An unknown hash answers NOSCRIPT without a round trip, which makes
 * Ratelimit send the full script once through `eval`.
 */
export function createIoredisScriptAdapter(client: IoredisScriptClient): UpstashScriptClient {
  const strippedShaByOriginalSha = new Map<string, string>();
  const firstReady = firstReadyGate(client);

  return {
    async evalsha(sha1, keys, args) {
      const strippedSha = strippedShaByOriginalSha.get(sha1);
      if (strippedSha === undefined) throw new Error("NOSCRIPT No matching script. Please use EVAL.");
      await firstReady();
      return client.evalsha(strippedSha, keys.length, ...keys, ...args.map(toRedisArgument));
    },
    async eval(script, keys, args) {
      const stripped = stripLuaShebang(script);
      strippedShaByOriginalSha.set(sha1Hex(script), sha1Hex(stripped));
      await firstReady();
      return client.eval(stripped, keys.length, ...keys, ...args.map(toRedisArgument));
    },
  };
}

function sha1Hex(text: string): string {
  return createHash("sha1").update(text).digest("hex");
}

function toRedisArgument(value: unknown): string | number {
  return typeof value === "number" ? value : String(value ?? "");
}

/**
 * With the offline queue off, ioredis rejects commands until its first connection is up, so a
 * request arriving in the first milliseconds after boot would count as an outage. Until the
 * first connection succeeds or fails, wait for it (the caller's timeout bounds the wait); after
 * that, let ioredis fail fast on its own.
 */
function firstReadyGate(client: IoredisScriptClient): () => Promise<void> {
  let settled = client.status === "ready";
  let pending: Promise<void> | undefined;
  return () => {
    if (settled || client.status === "ready") {
      settled = true;
      return Promise.resolve();
    }
    pending ??= new Promise<void>((resolve, reject) => {
      const onReady = (): void => {
        cleanup();
        resolve();
      };
      const onError = (error: Error): void => {
        cleanup();
        reject(error);
      };
      const onEnd = (): void => {
        cleanup();
        reject(new Error("Redis connection closed"));
      };
      const cleanup = (): void => {
        settled = true;
        client.off("ready", onReady);
        client.off("error", onError);
        client.off("end", onEnd);
      };
      client.once("ready", onReady);
      client.once("error", onError);
      client.once("end", onEnd);
    });
    return pending;
  };
}
