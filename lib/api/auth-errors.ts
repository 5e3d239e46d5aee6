import { AppError, DEFAULT_MESSAGES } from "@/lib/errors";
import type { AuthorizationFailure } from "@/lib/keys/authorization-header";
import type { Permission } from "@/lib/keys/permissions";
import { planNames, PLANS } from "@/lib/plans";

/** Why a /v1 request was not authenticated: how its Authorization header failed, or a key that is not in force. */
export type AuthenticationFailure = AuthorizationFailure | "unknown";

const REASONS: Record<AuthenticationFailure, string> = {
  missing: "the Authorization header is missing",
  wrong_scheme: "the Authorization header must use the Bearer scheme (Authorization: Bearer <API key>)",
  empty: "the Bearer token is empty",
  malformed: "the key is malformed (svc_sk_live_ or svc_sk_test_ followed by 38 letters and digits)",
  bad_checksum: "the key is malformed (its checksum does not match: check it was copied whole)",
  unknown: "the key is unknown, revoked or expired",
};

/**
 * The 401 of a /v1 request: the code's default text, then which of the causes it was, so a
 * client can tell a missing header from a revoked key. `WWW-Authenticate` as RFC 6750 §3 writes
 * it: a bare `Bearer` challenge when no bearer token came, `error="invalid_token"` when one did.
 */
export function unauthorized(reason: AuthenticationFailure): AppError {
  const tokenSent = reason !== "missing" && reason !== "wrong_scheme" && reason !== "empty";
  const challenge = tokenSent ? `Bearer error="invalid_token", error_description="${REASONS[reason]}"` : "Bearer";
  return new AppError("UNAUTHORIZED", `${DEFAULT_MESSAGES.UNAUTHORIZED}: ${REASONS[reason]}`, { headers: { "WWW-Authenticate": challenge } });
}

/** "Pro and Desk": the plans whose keys may hold `permission`, by name. */
export function plansWith(permission: Permission): string {
  return planNames(PLANS.filter((plan) => plan.permissions.includes(permission)));
}

/**
 * The 403 of a key without the permission a route needs: the code's default text, then the
 * permission and the plans that include it (a key restricted to fewer permissions than its plan
 * holds gets the same answer: it is the key that lacks it).
 */
export function missingPermission(permission: Permission): AppError {
  const plans = plansWith(permission);
  const plural = plans.includes(" and ") ? "plans" : "plan";
  return new AppError("FORBIDDEN", `${DEFAULT_MESSAGES.FORBIDDEN}: needs ${permission}, included in the ${plans} ${plural}`);
}
