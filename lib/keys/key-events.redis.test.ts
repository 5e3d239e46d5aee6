// Needs a real redis-server (started here on a free loopback port), which the test stops and starts
// again: the bus must ride out the outage quietly and without slowing a revocation down.
import { afterAll, afterEach, describe, expect, it, vi } from "vitest";
import { startTestRedisServer, type TestRedisServer } from "@/tests/support/redis-server";
import { KeyEventBus, type KeyChange } from "./key-events";

const buses: KeyEventBus[] = [];
let redis: TestRedisServer | undefined;

afterEach(() => vi.restoreAllMocks());
afterAll(async () => {
  await Promise.all(buses.map((bus) => bus.close()));
  await redis?.stop();
});

async function waitFor(condition: () => boolean, timeoutMs = 10_000) {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error("condition not met in time");
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe("KeyEventBus over Redis", () => {
  it("rides out a Redis outage: no unhandled ioredis errors, one line each way, revocations not held up", async () => {
    redis = await startTestRedisServer();
    const port = redis.port;
    const sender = new KeyEventBus();
    const receiver = new KeyEventBus();
    buses.push(sender, receiver);
    await Promise.all([sender.connect(redis.url), receiver.connect(redis.url)]);
    const heard: KeyChange[] = [];
    receiver.subscribe((change) => heard.push(change));
    await sender.publish({ keyId: "k1" });
    expect(heard).toEqual([{ keyId: "k1" }]);

    const errors = vi.spyOn(console, "error").mockImplementation(() => undefined);
    const warnings = vi.spyOn(console, "warn").mockImplementation(() => undefined);
    await redis.stop();
    // Several of ioredis's reconnection attempts (50, 100, 150 … ms apart) fail meanwhile.
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    const started = performance.now();
    await sender.publish({ keyId: "k2" });
    expect(performance.now() - started).toBeLessThan(100);
    expect(errors.mock.calls.map((call) => String(call[0]))).not.toContainEqual(expect.stringContaining("Unhandled error event"));
    expect(errors).not.toHaveBeenCalled();
    // One line per bus for the outage, none per retry or per publish.
    const lost = warnings.mock.calls.filter((call) => String(call[0]).includes("Redis unreachable"));
    expect(lost).toHaveLength(2);
    expect(warnings).toHaveBeenCalledTimes(2);

    redis = await startTestRedisServer(port);
    await waitFor(() => warnings.mock.calls.filter((call) => String(call[0]).includes("Redis reachable again")).length === 2);
    await waitFor(() => {
      void sender.publish({ keyId: "k3" });
      return heard.some((change) => change.keyId === "k3");
    });
    expect(errors).not.toHaveBeenCalled();
  });
});
