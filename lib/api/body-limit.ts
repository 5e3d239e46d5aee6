import type { IncomingMessage, ServerResponse } from "node:http";
import { AppError } from "@/lib/errors";
import { errorBody } from "./envelope";
import { newRequestId } from "./request-id";

/**
 * The largest request body server.ts lets through to anything (pages, next-auth, /api/*, /v1).
 * Forms and account JSON are a few KB; /v1 refuses JSON over 64 KB itself (read-json.ts), with
 * the error envelope. This cap is what keeps a client from making any handler read without end.
 */
export const MAX_REQUEST_BODY_BYTES = 1024 * 1024;

/** How long a refused connection is drained (read and discarded) so the client can read the 413. */
const LINGER_MS = 1_000;

/**
 * Caps the request's body before any handler sees it. A declared Content-Length over the cap is
 * answered 413 at once, unread. A chunked body is counted as it arrives and, the moment it passes
 * the cap, answered 413 and the connection closed: the handler's read then fails instead of ending
 * normally, so it never acts on a truncated body, and nothing beyond the cap is ever buffered.
 * Returns false when the request was refused (the caller must not hand it on).
 */
export function limitRequestBody(req: IncomingMessage, res: ServerResponse, maxBytes = MAX_REQUEST_BODY_BYTES): boolean {
  const declared = req.headers["content-length"];
  if (declared !== undefined) {
    // Node's parser has refused a malformed length already, and never delivers more than it says.
    if (Number(declared) <= maxBytes) return true;
    refuse(req, res, maxBytes);
    return false;
  }
  if (req.headers["transfer-encoding"] === undefined) return true; // no body at all
  let received = 0;
  // The HTTP parser hands each body chunk to push(); counting there sees every byte before any
  // reader does, without reading the stream ourselves (which would take chunks from the handler).
  const push = req.push.bind(req);
  req.push = (chunk: unknown, encoding?: BufferEncoding) => {
    if (chunk !== null && chunk !== undefined) {
      received += (chunk as Buffer).length;
      if (received > maxBytes) {
        refuse(req, res, maxBytes);
        return true;
      }
    }
    return push(chunk, encoding);
  };
  return true;
}

function refuse(req: IncomingMessage, res: ServerResponse, maxBytes: number): void {
  const socket = req.socket;
  // From here every byte of the body is dropped as it arrives (the handler's read fails when the
  // socket closes, so it never acts on a truncated body).
  req.push = () => true;
  if (res.headersSent) {
    socket.destroy();
    return;
  }
  const body = JSON.stringify(errorBody(new AppError("PAYLOAD_TOO_LARGE", `Request body must be at most ${maxBytes} bytes`), newRequestId()));
  res.writeHead(413, {
    "Content-Type": "application/json",
    "Content-Length": Buffer.byteLength(body),
    Connection: "close",
  });
  res.end(body);
  // The handler may still answer (its read fails once the socket goes); the response is over.
  silence(res);
  // Closing at once with unread bytes in flight can reset the connection before the client reads
  // the 413: what still arrives is discarded (above) for a moment, then the connection is closed.
  setTimeout(() => socket.destroy(), LINGER_MS).unref();
}

/** Makes a finished response ignore whatever its handler still tries to write. */
function silence(res: ServerResponse): void {
  const ignore = () => res;
  Object.assign(res, {
    writeHead: ignore,
    setHeader: ignore,
    appendHeader: ignore,
    removeHeader: () => undefined,
    flushHeaders: () => undefined,
    write: () => true,
    end: ignore,
  });
}
