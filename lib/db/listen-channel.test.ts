import { createServer, type AddressInfo } from "node:net";
import { describe, expect, it } from "vitest";
import { listenOnChannel } from "./listen-channel";

/** A port on which a server accepts connections and closes them at once: PostgreSQL is "down". */
async function refusingPort(): Promise<{ port: number; close: () => Promise<void> }> {
  const server = createServer((socket) => socket.destroy());
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { port: (server.address() as AddressInfo).port, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

describe("listenOnChannel", () => {
  it("reports an outage once per attempt with its backoff, settles `ready`, refuses to send while down, and stops", async () => {
    const down = await refusingPort();
    const outages: { failures: number; retryInMs: number }[] = [];
    const listener = listenOnChannel({
      databaseUrl: `postgres://nobody@127.0.0.1:${down.port}/none`,
      channel: "test_channel",
      onNotification: () => undefined,
      onDown: (_error, outage) => outages.push(outage),
      onUp: () => expect.fail("never connected"),
      onCloseError: () => undefined,
    });
    try {
      await listener.ready;
      expect(outages).toEqual([{ failures: 0, retryInMs: 1_000 }]);
      await expect(listener.query("SELECT 1", [])).rejects.toThrow("not connected to PostgreSQL");
    } finally {
      await listener.stop();
      await down.close();
    }
  });
});
