import http from "node:http";
import net from "node:net";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { limitRequestBody, MAX_REQUEST_BODY_BYTES } from "@/lib/api/body-limit";

// A server as server.ts builds one: the cap first, then a handler that reads the whole body before
// answering, as next-auth does. Spoken to over a real socket, so what crosses the wire is tested.
let server: http.Server;
let port: number;
const handled: number[] = [];

beforeAll(async () => {
  server = http.createServer((req, res) => {
    if (!limitRequestBody(req, res)) return;
    let size = 0;
    req.on("data", (chunk: Buffer) => (size += chunk.length));
    req.on("error", () => undefined);
    req.on("end", () => {
      handled.push(size);
      res.writeHead(200, { "Content-Type": "text/plain" }).end(`read ${size}`);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

interface Exchange {
  response: string;
  /** Body bytes the client managed to write before the server answered or closed. */
  sent: number;
  closed: boolean;
  ms: number;
}

/** Sends `head`, then body chunks from `chunks` until the server answers and closes (or they run out). */
function exchange(head: string, chunks: () => Buffer | null): Promise<Exchange> {
  return new Promise((resolve) => {
    const started = Date.now();
    const socket = net.connect(port, "127.0.0.1");
    let response = "";
    let sent = 0;
    let answered = false;
    const finish = (closed: boolean) => resolve({ response, sent, closed, ms: Date.now() - started });
    socket.on("data", (data) => {
      response += data.toString("latin1");
      answered = true;
    });
    socket.on("error", () => undefined);
    socket.on("close", () => finish(true));
    socket.write(head, () => {
      const pump = () => {
        while (!answered && !socket.destroyed) {
          const chunk = chunks();
          if (!chunk) return;
          sent += chunk.length;
          if (!socket.write(chunk)) return void socket.once("drain", pump);
        }
      };
      pump();
    });
    // A server that neither answers nor closes fails the test by timing out.
  });
}

const MB = 1024 * 1024;

function chunkedBody(totalBytes: number, chunkBytes = 64 * 1024) {
  const payload = Buffer.alloc(chunkBytes, "a");
  const chunk = Buffer.concat([Buffer.from(`${chunkBytes.toString(16)}\r\n`), payload, Buffer.from("\r\n")]);
  let left = totalBytes;
  return () => {
    if (left <= 0) return null;
    left -= chunkBytes;
    return left <= 0 ? Buffer.concat([chunk, Buffer.from("0\r\n\r\n")]) : chunk;
  };
}

describe("the request body cap", () => {
  it("answers a declared length over the cap with 413 at once, reading nothing, and closes", async () => {
    const before = handled.length;
    const result = await exchange(`POST /api/auth/callback/credentials HTTP/1.1\r\nHost: x\r\nContent-Length: ${60 * MB}\r\n\r\n`, () => null);
    expect(result.response).toMatch(/^HTTP\/1\.1 413 /);
    expect(result.response).toContain("PAYLOAD_TOO_LARGE");
    expect(result.response.toLowerCase()).toContain("connection: close");
    expect(result.closed).toBe(true);
    expect(result.ms).toBeLessThan(5_000);
    expect(handled.length, "the handler never ran").toBe(before);
  });

  it("cuts off a chunked 60 MB body soon after the cap, with 413, and closes the connection", async () => {
    const before = handled.length;
    const result = await exchange("POST /api/auth/signin HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n", chunkedBody(60 * MB));
    expect(result.response).toMatch(/^HTTP\/1\.1 413 /);
    expect(result.closed).toBe(true);
    // The client got its answer long before it could send 60 MB; the handler never finished reading.
    expect(result.sent).toBeLessThan(20 * MB);
    expect(handled.length).toBe(before);
  });

  it("lets bodies up to the cap through whole, declared or chunked", async () => {
    const declared = await exchange(
      `POST /v1/positions HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Length: ${MAX_REQUEST_BODY_BYTES}\r\n\r\n`,
      (() => {
        let done = false;
        return () => (done ? null : ((done = true), Buffer.alloc(MAX_REQUEST_BODY_BYTES, "b")));
      })(),
    );
    expect(declared.response).toMatch(/^HTTP\/1\.1 200 /);
    expect(declared.response).toContain(`read ${MAX_REQUEST_BODY_BYTES}`);

    const chunked = await exchange(
      "POST /api/account/keys HTTP/1.1\r\nHost: x\r\nConnection: close\r\nTransfer-Encoding: chunked\r\n\r\n",
      chunkedBody(MAX_REQUEST_BODY_BYTES),
    );
    expect(chunked.response).toMatch(/^HTTP\/1\.1 200 /);
    expect(chunked.response).toContain(`read ${MAX_REQUEST_BODY_BYTES}`);
  });
});
