import { afterAll, beforeAll } from "vitest";
import { startClientTestServer, type ClientTestServer } from "./client-test-server";

/**
 * The contract tests' server for a test file: started before its tests, closed after them. What it
 * returns reads through to the running server, so `server.baseUrl` and `server.keys` work in tests
 * and hooks declared after this call.
 */
export function clientTestServerForFile(): ClientTestServer {
  let started: ClientTestServer | undefined;
  beforeAll(async () => {
    started = await startClientTestServer();
  });
  afterAll(async () => {
    await started?.close();
  });
  return new Proxy({} as ClientTestServer, {
    get(_, property) {
      if (!started) throw new Error("clientTestServerForFile: the server starts in beforeAll");
      const value: unknown = Reflect.get(started, property);
      return typeof value === "function" ? value.bind(started) : value;
    },
  });
}
