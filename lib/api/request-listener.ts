import type { IncomingMessage, ServerResponse } from "node:http";
import { clientAddress, type TrustedProxies } from "@/lib/config/client-address";
import { AppError } from "@/lib/errors";
import { limitRequestBody } from "./body-limit";
import { errorBody } from "./envelope";
import { routeRequest } from "./paths";
import { newRequestId } from "./request-id";
import { runInRequestContext } from "@/lib/observability/request-context";

type Handler = (req: IncomingMessage, res: ServerResponse) => unknown;

export interface RequestListenerParts {
  /** The API app's node listener (createApiApp().fetch through @hono/node-server). */
  api: Handler;
  /** Next's request handler. */
  next: Handler;
  trustedProxies: TrustedProxies;
  /** Headers every answer Next gives carries (the API app sets its own). */
  baselineHeaders: readonly (readonly [string, string])[];
}

// TRACE echoes the request (cookies included) back; CONNECT and TRACK are not served either.
const REFUSED_METHODS = new Set(["TRACE", "TRACK", "CONNECT"]);
const SERVED_METHODS = "GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS";

function refuse(res: ServerResponse, error: AppError, requestId: string, headers: Record<string, string> = {}): void {
  const body = JSON.stringify(errorBody(error, requestId));
  res.writeHead(error.status, { ...headers, "Content-Type": "application/json", "Content-Length": Buffer.byteLength(body) });
  res.end(body);
}

/**
 * server.ts's request listener, the one front door: it sets the client's address, caps the body,
 * refuses what no handler should see, and hands /v1 (in any spelling, lib/api/paths.ts) to the API
 * app and everything else to Next.
 */
export function createRequestListener(parts: RequestListenerParts) {
  return (req: IncomingMessage, res: ServerResponse): void => {
    // The audit trail, the sign-in limits and the keys' allowlists key on this, under every route and
    // page; a client cannot choose it (TRUSTED_PROXIES).
    req.headers["x-real-ip"] = clientAddress(req.socket.remoteAddress, req.headers["x-forwarded-for"], parts.trustedProxies);
    // Before any handler: nothing may read a body without end (next-auth reads whatever it is sent).
    if (!limitRequestBody(req, res)) return;
    const route = REFUSED_METHODS.has(req.method ?? "") ? undefined : routeRequest(req.url ?? "/");
    if (route?.to === "api") {
      // The API app sets its own headers, and reads the path in the one spelling it was routed on.
      req.url = route.url;
      return void parts.api(req, res);
    }
    // Everything else, Next's answers and static files included, gets the baseline; pages add their policy (proxy.ts).
    for (const [name, value] of parts.baselineHeaders) res.setHeader(name, value);
    // The API app opens its own request context; everything else is Next's, under this one.
    const requestId = newRequestId();
    if (!route) return refuse(res, new AppError("METHOD_NOT_ALLOWED", `Method ${req.method} is not allowed`), requestId, { Allow: SERVED_METHODS });
    if (route.to === "bad-request") return refuse(res, new AppError("VALIDATION_ERROR", route.reason), requestId);
    return void runInRequestContext({ requestId }, () => parts.next(req, res));
  };
}
