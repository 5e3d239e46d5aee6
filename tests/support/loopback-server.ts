import type http from "node:http";
import type { AddressInfo } from "node:net";

/** Starts `server` on a free port of 127.0.0.1: its port and base URL. */
export async function listenOnLoopback(server: http.Server): Promise<{ port: number; baseUrl: string }> {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return { port, baseUrl: `http://127.0.0.1:${port}` };
}

/** Closes `server` with every connection still open on it (streams included). */
export async function closeServer(server: http.Server | undefined): Promise<void> {
  if (!server) return;
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
}
