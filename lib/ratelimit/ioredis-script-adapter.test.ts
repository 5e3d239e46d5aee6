import { createHash } from "node:crypto";
import { EventEmitter } from "node:events";
import { describe, expect, it, vi } from "vitest";
import { createIoredisScriptAdapter, type IoredisScriptClient } from "./ioredis-script-adapter";

const sha1 = (text: string) => createHash("sha1").update(text).digest("hex");
const SCRIPT = "#!lua flags=allow-key-locking\n  return tonumber(ARGV[1]) + 1\n";
const STRIPPED = "\n  return tonumber(ARGV[1]) + 1\n";

function fakeClient(status = "ready") {
  const client = Object.assign(new EventEmitter(), {
    status,
    eval: vi.fn(async (..._args: unknown[]) => "eval-reply"),
    evalsha: vi.fn(async (..._args: unknown[]) => "evalsha-reply"),
  });
  return { client, adapter: createIoredisScriptAdapter(client as unknown as IoredisScriptClient) };
}

describe("createIoredisScriptAdapter", () => {
  it("answers NOSCRIPT for a hash it has not seen, without asking Redis", async () => {
    const { client, adapter } = fakeClient();
    await expect(adapter.evalsha(sha1(SCRIPT), ["k"], [1])).rejects.toThrow(/NOSCRIPT/);
    expect(client.evalsha).not.toHaveBeenCalled();
  });

  it("sends the script without its shebang, keys counted, arguments as strings or numbers", async () => {
    const { client, adapter } = fakeClient();
    await expect(adapter.eval(SCRIPT, ["a", "b"], [1, "x", null])).resolves.toBe("eval-reply");
    expect(client.eval).toHaveBeenCalledWith(STRIPPED, 2, "a", "b", 1, "x", "");
  });

  it("maps Upstash's hash of the original script to the hash of the stripped one", async () => {
    const { client, adapter } = fakeClient();
    await adapter.eval(SCRIPT, ["k"], [1]);
    await expect(adapter.evalsha(sha1(SCRIPT), ["k"], [2])).resolves.toBe("evalsha-reply");
    expect(client.evalsha).toHaveBeenCalledWith(sha1(STRIPPED), 1, "k", 2);
  });

  it("passes Redis's own NOSCRIPT through so Ratelimit re-sends the script", async () => {
    const { client, adapter } = fakeClient();
    await adapter.eval(SCRIPT, [], []);
    client.evalsha.mockRejectedValueOnce(new Error("NOSCRIPT No matching script. Please use EVAL."));
    await expect(adapter.evalsha(sha1(SCRIPT), [], [])).rejects.toThrow(/NOSCRIPT/);
  });

  it("waits for the first connection instead of failing the first requests after boot", async () => {
    const { client, adapter } = fakeClient("connecting");
    const reply = adapter.eval(SCRIPT, [], []);
    await Promise.resolve();
    expect(client.eval).not.toHaveBeenCalled();
    client.status = "ready";
    client.emit("ready");
    await expect(reply).resolves.toBe("eval-reply");
  });

  it("fails when the first connection attempt fails, then leaves failing fast to ioredis", async () => {
    const { client, adapter } = fakeClient("connecting");
    const reply = adapter.eval(SCRIPT, [], []);
    client.emit("error", new Error("connect ECONNREFUSED 127.0.0.1:1"));
    await expect(reply).rejects.toThrow(/ECONNREFUSED/);
    client.status = "reconnecting";
    await expect(adapter.eval(SCRIPT, [], [])).resolves.toBe("eval-reply");
    expect(client.eval).toHaveBeenCalledTimes(1);
  });
});
