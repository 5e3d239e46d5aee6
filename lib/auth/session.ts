import { getServerSession } from "next-auth";
import { notFound, redirect } from "next/navigation";
import { getDb } from "@/lib/db";
import { tierFromDb, type Tier } from "@/lib/keys/permissions";
import { authOptions } from "./options";
import { touchUserSession } from "@/lib/accounts/user-sessions";

export interface SessionUser {
  id: string;
  email: string;
  tier: Tier;
  emailVerified: boolean;
  isAdmin: boolean;
  /** The UserSession row of this browser: "this session" on Account → Security. */
  sessionId: string;
}

/**
 * The signed-in user, read fresh from the database; null when signed out, when the account is
 * gone, or when the cookie's session was revoked, expired or idle too long (lib/accounts/user-sessions.ts).
 * A cookie without a session id (issued before sessions were recorded) counts as signed out.
 */
export async function currentUser(): Promise<SessionUser | null> {
  const session = await getServerSession(authOptions);
  const userId = session?.user?.id;
  const sessionId = session?.sessionId;
  if (!userId || !sessionId) return null;
  const db = await getDb();
  const [active, user] = await Promise.all([
    touchUserSession(db, sessionId, userId),
    db.user.findUnique({
      where: { id: userId },
      select: { id: true, email: true, tier: true, isOperator: true, emailVerifiedAt: true },
    }),
  ]);
  if (!active || !user) return null;
  return {
    id: user.id,
    email: user.email,
    tier: tierFromDb(user.tier),
    emailVerified: user.emailVerifiedAt !== null,
    // Operator rights need both the grant (npm run admin) and an address the owner proved is theirs.
    isAdmin: user.isOperator && user.emailVerifiedAt !== null,
    sessionId,
  };
}

/** For pages of the account area: the user, or a redirect to sign-in that comes back here. */
export async function requireUser(returnTo: string): Promise<SessionUser> {
  const user = await currentUser();
  if (!user) redirect(`/signin?callbackUrl=${encodeURIComponent(returnTo)}`);
  return user;
}

/** For operator pages: everyone else gets the ordinary 404, learning nothing. */
export async function requireAdmin(): Promise<SessionUser> {
  const user = await currentUser();
  if (!user?.isAdmin) notFound();
  return user;
}
