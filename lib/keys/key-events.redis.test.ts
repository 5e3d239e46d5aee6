// Needs a real redis-server (started here on a free loopback port), which the test stops and starts
// again: the bus must ride out the outage quietly and without slowing a revocation down.
import { afterAll, afterEach, describe, expect, it, onTestFinished, vi } from "vitest";
import { captureLogs } from "@/tests/support/capture-logs";
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

    // ioredis writes to the console itself when an "error" event goes unheard.
    const errors = vi.spyOn(console, "error").mockImplementation(() => undefined);
    const logs = captureLogs();
    onTestFinished(logs.restore);
    const warnings = () => logs.records().filter((r) => r.level === "warn").map((r) => r.msg);
    const logErrors = () => logs.records().filter((r) => r.level === "error" || r.level === "fatal");
    await redis.stop();
    // Several of ioredis's reconnection attempts (50, 100, 150 … ms apart) fail meanwhile.
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    const started = performance.now();
    await sender.publish({ keyId: "k2" });
    expect(performance.now() - started).toBeLessThan(100);
    expect(errors.mock.calls.map((call) => String(call[0]))).not.toContainEqual(expect.stringContaining("Unhandled error event"));
    expect(errors).not.toHaveBeenCalled();
    expect(logErrors()).toEqual([]);
    // One line per bus for the outage, none per retry or per publish.
    const lost = warnings().filter((msg) => msg.includes("Redis unreachable"));
    expect(lost).toHaveLength(2);
    expect(warnings()).toHaveLength(2);

    redis = await startTestRedisServer(port);
    await waitFor(() => warnings().filter((msg) => msg.includes("Redis reachable again")).length === 2);
    await waitFor(() => {
      void sender.publish({ keyId: "k3" });
      return heard.some((change) => change.keyId === "k3");
    });
    expect(errors).not.toHaveBeenCalled();
    expect(logErrors()).toEqual([]);
  });
});
