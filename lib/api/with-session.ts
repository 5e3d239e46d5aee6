import { AppError } from "@/lib/errors";
import { isPlausibleId } from "@/lib/validation";
import { newRequestId } from "./request-id";
import { currentRequestContext, runInRequestContext } from "@/lib/observability/request-context";
import { jsonError, jsonSuccess } from "./respond";
import { requestOrigin, type RequestOrigin } from "@/lib/audit";
import { getDb, type Db } from "@/lib/db";
import { currentUser, type SessionUser } from "@/lib/auth/session";
import { isSameOrigin, publicOrigin } from "@/lib/config/public-url";

type Access = "user" | "admin" | "anonymous";

interface Context<P, A extends Access> {
  request: Request;
  db: Db;
  params: P;
  origin: RequestOrigin;
  user: A extends "anonymous" ? null : SessionUser;
}

export interface Reply {
  data: unknown;
  status?: number;
}

/**
 * The one wrapper for the account area's JSON routes: same-origin check on every mutation
 * (with SameSite=Lax cookies this closes cross-site request forgery), session and operator
 * checks, then the handler; every answer in the API's envelope.
 */
export function withSession<P = Record<string, never>, A extends Access = "user">(
  access: A,
  handler: (context: Context<P, A>) => Promise<Reply>,
) {
  return async (request: Request, route: { params: Promise<P> }): Promise<Response> => {
    // The id server.ts's listener gave the request, so the answer names the one its log lines carry.
    const requestId = currentRequestContext()?.requestId ?? newRequestId();
    try {
      if (request.method !== "GET" && request.method !== "HEAD") assertSameOrigin(request);
      const user = access === "anonymous" ? null : await currentUser();
      if (access !== "anonymous" && !user) throw new AppError("UNAUTHORIZED", "Sign in to continue");
      if (access === "admin" && !user?.isAdmin) throw new AppError("NOT_FOUND");
      const params = await route.params;
      // Every [id] of the account area names a row by its cuid; anything else is not found (a NUL
      // byte would otherwise reach PostgreSQL and fail as a 500).
      const id = (params as { id?: string } | undefined)?.id;
      if (id !== undefined && !isPlausibleId(id)) throw new AppError("NOT_FOUND");
      const db = await getDb();
      const reply = await runInRequestContext({ requestId, account: user?.id }, () =>
        handler({ request, db, params, origin: requestOrigin(request.headers), user: user as Context<P, A>["user"] }),
      );
      return jsonSuccess(reply.data, requestId, reply.status ?? 200);
    } catch (error) {
      return jsonError(error, requestId);
    }
  };
}

function assertSameOrigin(request: Request) {
  // Scheme, host and port of Origin against the configured public origin, never the Host header a
  // client chooses: an http page (or another port) must not post to the https site.
  if (!isSameOrigin(request.headers.get("origin"), publicOrigin())) throw new AppError("FORBIDDEN", "Cross-site request refused");
}
