// How every baseline server of the benchmark runs (bare-server.ts, contract-minimum-server.ts): in
// its own process, on a free loopback port it tells the parent over IPC, gone when told or orphaned.
import type http from "node:http";

export function serveBaseline(server: http.Server): void {
  server.keepAliveTimeout = 5_000;
  server.listen(0, "127.0.0.1", () => {
    const address = server.address();
    process.send?.({ port: typeof address === "object" && address ? address.port : 0 });
  });
  process.on("SIGTERM", () => {
    server.close();
    server.closeAllConnections();
    process.exit(0);
  });
  process.on("disconnect", () => process.exit(0)); // the parent died: do not linger
}
