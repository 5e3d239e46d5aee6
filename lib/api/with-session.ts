import { actorFromSession, type Actor } from "@/lib/actor";
import { appServices, type AppServices } from "@/lib/app-services";
import { AppError } from "@/lib/errors";
import { isPlausibleId } from "@/lib/validation";
import { newRequestId } from "./request-id";
import { currentRequestContext, runInRequestContext } from "@/lib/observability/request-context";
import { jsonError, jsonSuccess } from "./respond";
import { assertAllowed, type RouteRule } from "./route-rule";
import { requestOrigin, type RequestOrigin } from "@/lib/audit";
import { getDb, type Db } from "@/lib/db";
import { currentUser, type SessionUser } from "@/lib/auth/session";
import { isSameOrigin, publicOrigin } from "@/lib/config/public-url";

export type Access = "user" | "admin" | "anonymous";

type Signed<A extends Access, T> = A extends "anonymous" ? null : T;

export interface SessionContext<P, A extends Access> {
  request: Request;
  db: Db;
  services: AppServices;
  params: P;
  origin: RequestOrigin;
  user: Signed<A, SessionUser>;
  /** The signed-in user as the actor of domain operations (lib/actor.ts): live mode, the session's permissions. */
  actor: Signed<A, Actor>;
}

/** A handler's answer: data for the envelope, or a response of its own (a file streamed as it is read). */
export type Reply = { data: unknown; status?: number } | { response: Response };

export interface SessionOptions {
  /** The operation's rule, the one its /v1 route declares (lib/api/route-rule.ts): checked against the session's actor before the handler. */
  rule?: RouteRule;
  /**
   * What the route's `[id]` names: a stored row (the default: an id that cannot be one is 404 before
   * the database sees it) or something else the handler looks up itself (an opportunity id).
   */
  id?: "row" | "other";
}

/**
 * The one wrapper for the web app's JSON routes, the session's counterpart of withApiKey:
 * same-origin check on every mutation (with SameSite=Lax cookies this closes cross-site request
 * forgery), the session (401 when signed out) and operator checks, the session's Actor checked
 * against the operation's rule as /v1 checks a key (403 naming the permission), then the
 * handler; every answer in the API's envelope.
 */
export function withSession<P = Record<string, never>, A extends Access = "user">(
  access: A,
  handler: (context: SessionContext<P, A>) => Promise<Reply>,
  options: SessionOptions = {},
) {
  return async (request: Request, route: { params: Promise<P> }): Promise<Response> => {
    // The id server.ts's listener gave the request, so the answer names the one its log lines carry.
    const requestId = currentRequestContext()?.requestId ?? newRequestId();
    try {
      if (request.method !== "GET" && request.method !== "HEAD") assertSameOrigin(request);
      const user = access === "anonymous" ? null : await currentUser();
      if (access !== "anonymous" && !user) throw new AppError("UNAUTHORIZED", "Sign in to continue");
      if (access === "admin" && !user?.isAdmin) throw new AppError("NOT_FOUND");
      const actor = user ? actorFromSession(user) : null;
      if (options.rule) {
        if (!actor) throw new AppError("UNAUTHORIZED", "Sign in to continue");
        assertAllowed(options.rule, actor);
      }
      const params = await route.params;
      // An [id] naming a row is a cuid; anything else is not found (a NUL byte would otherwise reach
      // PostgreSQL and fail as a 500).
      const id = (params as { id?: string } | undefined)?.id;
      if (id !== undefined && options.id !== "other" && !isPlausibleId(id)) throw new AppError("NOT_FOUND");
      const db = await getDb();
      const reply = await runInRequestContext({ requestId, account: user?.id }, () =>
        handler({
          request,
          db,
          // Built on first use: the routes that need no more than the database never start the services.
          get services() {
            return appServices();
          },
          params,
          origin: requestOrigin(request.headers),
          user: user as SessionContext<P, A>["user"],
          actor: actor as SessionContext<P, A>["actor"],
        }),
      );
      if ("response" in reply) {
        reply.response.headers.set("X-Request-Id", requestId);
        return reply.response;
      }
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
