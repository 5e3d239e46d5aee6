import type { Context } from "hono";
import type { z } from "zod";
import type { Permission } from "@/lib/keys/permissions";
import type { ApiServices } from "./services";
import type { ApiEnv } from "./with-api-key";

export type HttpMethod = "GET" | "POST" | "PATCH" | "DELETE";

/**
 * One /v1 route: where it lives, how to build its handler from the app's services, and what the
 * OpenAPI document (lib/api/openapi/) and the generated clients say about it. The description
 * lives here, beside the handler, so a route cannot be served without being documented; the
 * schemas are the same ones the handler validates with, and tests check that the document's
 * permission, parameters and response shapes are what the handler actually does.
 */
export interface ApiRoute {
  method: HttpMethod;
  /** Hono path pattern, e.g. /v1/opportunities/:id */
  path: string;
  /** camelCase name of the operation: the OpenAPI operationId and the clients' method name. */
  operationId: string;
  /** One line for the reference. */
  summary: string;
  /** What a caller needs to know beyond the summary (markdown). */
  description: string;
  /** Groups operations in the reference, e.g. "Opportunities". */
  tag: string;
  /** The permission given to withApiKey; null when any valid key may call it. */
  permission: Permission | null;
  /** The query schema given to withApiKey; absent when the route accepts no parameters. */
  query?: z.ZodObject;
  /** The JSON request body's schema given to withApiKey; absent when the route reads no body. */
  body?: z.ZodType;
  /** One schema per `:name` segment of `path`, as the handler reads them. */
  params?: z.ZodObject;
  /** The `data` of the success envelope, as the handler returns it. */
  data: z.ZodType;
  /** Fields the route adds to `meta` beside `timestamp` and `request_id`. */
  meta?: z.ZodObject;
  /**
   * A request that succeeds (path and query values as sent), for the reference's curl example and
   * the contract tests; needed when the route has path or required query parameters, or a body.
   * `params` values naming a resource another route creates are documented placeholders: the
   * contract tests create the resource first with that route's example (`createdBy`).
   */
  example?: {
    params?: Record<string, string>;
    query?: Record<string, string>;
    body?: Record<string, unknown>;
    /** operationId of the route whose example creates the resource this example reads, by `data.id`. */
    createdBy?: string;
  };
  /**
   * The route honours an `Idempotency-Key` header (every POST does): given to withApiKey, and
   * documented as a header parameter with the 409 IDEMPOTENCY_CONFLICT answer.
   */
  idempotent?: boolean;
  /** HTTP status of success; 200 unless the route creates something (DESIGN.md). */
  status?: 200 | 201;
  handler: (services: ApiServices) => (c: Context<ApiEnv>) => Promise<Response>;
}

/** A regular expression for a route path, so unknown methods on known paths can be told apart (405). */
export function pathPattern(path: string): RegExp {
  const source = path
    .split("/")
    .map((part) => (part.startsWith(":") ? "[^/]+" : part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")))
    .join("/");
  return new RegExp(`^${source}$`);
}
