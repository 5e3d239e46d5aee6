import { DEFAULT_RETURN_PATH, safeReturnPath } from "@/lib/safe-redirect";

/**
 * A link to the sign-in or sign-up page that comes back to `returnTo` afterwards: the two pages link
 * to each other with it, so a visitor who came from a deep link and creates an account on the way
 * still lands there. The default return path needs no query; anything else is re-checked, so a
 * link built here never carries a target sign-in would refuse.
 */
export function authPageHref(page: "/signin" | "/signup", returnTo: string): string {
  const target = safeReturnPath(returnTo);
  return target === DEFAULT_RETURN_PATH ? page : `${page}?callbackUrl=${encodeURIComponent(target)}`;
}
