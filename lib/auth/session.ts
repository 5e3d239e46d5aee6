import { getServerSession } from "next-auth";
import { notFound, redirect } from "next/navigation";
import { getDb } from "@/lib/db";
import { tierFromDb, type Tier } from "@/lib/keys/permissions";
import { authOptions } from "./options";

export interface SessionUser {
  id: string;
  email: string;
  tier: Tier;
  emailVerified: boolean;
  isAdmin: boolean;
}

/** The signed-in user, read fresh from the database; null when signed out or the account is gone. */
export async function currentUser(): Promise<SessionUser | null> {
  const session = await getServerSession(authOptions);
  if (!session?.user?.id) return null;
  const user = await (await getDb()).user.findUnique({
    where: { id: session.user.id },
    select: { id: true, email: true, tier: true, isOperator: true, emailVerifiedAt: true },
  });
  if (!user) return null;
  return {
    id: user.id,
    email: user.email,
    tier: tierFromDb(user.tier),
    emailVerified: user.emailVerifiedAt !== null,
    // Operator rights need both the grant (npm run admin) and an address the owner proved is theirs.
    isAdmin: user.isOperator && user.emailVerifiedAt !== null,
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
