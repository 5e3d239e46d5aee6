// The benchmark's baseline: a bare node:http server, in its own process, answering every request
// with precomputed bytes — the body and headers of one real /v1/opportunities response. It tells
// the parent its port over IPC.
//   node --import tsx scripts/bench/bare-server.ts <responseFile.json>
import { readFileSync } from "node:fs";
import http from "node:http";
import { serveBaseline } from "./serve-baseline";

export interface RecordedResponse {
  status: number;
  /** Header pairs as the service sent them, minus the ones node:http adds itself (Date, Connection…). */
  headers: [string, string][];
  bodyBase64: string;
}

const file = process.argv[2];
if (!file) throw new Error("usage: bare-server.ts <responseFile.json>");
const recorded = JSON.parse(readFileSync(file, "utf8")) as RecordedResponse;
const body = Buffer.from(recorded.bodyBase64, "base64");
const headers = recorded.headers.flat();

const server = http.createServer((_req, res) => {
  res.writeHead(recorded.status, headers);
  res.end(body);
});
serveBaseline(server);
