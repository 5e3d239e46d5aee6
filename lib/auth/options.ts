import type { NextAuthOptions } from "next-auth";
import CredentialsProvider from "next-auth/providers/credentials";
import { verifyCredentials } from "@/lib/accounts/accounts";
import { AppError } from "@/lib/errors";
import { requestOrigin } from "@/lib/audit";
import { getDb } from "@/lib/db";
import { logger } from "@/lib/observability/logger";
import { safeReturnPath } from "@/lib/safe-redirect";
import { createUserSession, endOwnSession, isUserSessionLive, SESSION_LIFETIME_MS } from "@/lib/accounts/user-sessions";

/**
 * Thrown by the jwt callback for a cookie whose session has ended: next-auth then answers as signed
 * out and clears the cookie instead of re-issuing it (`GET /api/auth/session`, getServerSession).
 */
class SessionEnded extends Error {
  override name = "SessionEnded";
}

/**
 * E-mail and password sign-in with JWT sessions. The cookie carries the user's id and the id of a
 * UserSession row; every request checks that row (lib/auth/session.ts), so sign-out, "sign out
 * everywhere", a password change, the idle timeout and the lifetime end a session at once, and
 * the tier and everything else are read from the database, so a downgrade applies at once too.
 */
export const authOptions: NextAuthOptions = {
  // The cookie lives no longer than its row; the row's own expiry is what is enforced.
  session: { strategy: "jwt", maxAge: SESSION_LIFETIME_MS / 1000 },
  pages: { signIn: "/signin" },
  providers: [
    CredentialsProvider({
      name: "E-mail and password",
      credentials: { email: { label: "E-mail", type: "email" }, password: { label: "Password", type: "password" } },
      async authorize(credentials, req) {
        const db = await getDb();
        const origin = requestOrigin(req.headers ?? {});
        let user;
        try {
          user = await verifyCredentials(db, credentials ?? {}, origin);
        } catch (error) {
          // next-auth hands a thrown message to the sign-in form; only the rate-limit text is safe to show.
          if (error instanceof AppError && error.code === "RATE_LIMITED") throw new Error(error.message);
          throw error;
        }
        if (!user) return null;
        const session = await createUserSession(db, user.id, origin);
        return { id: user.id, email: user.email, sessionId: session.id };
      },
    }),
  ],
  callbacks: {
    async jwt({ token, user }) {
      // `user` is only present at sign-in: the token keeps its session id from then on.
      if (user) {
        token.sub = user.id;
        token.sid = user.sessionId;
        return token;
      }
      // Every later read: a signed-out, revoked, expired or idle session is not refreshed.
      if (!token.sub || !token.sid || !(await isUserSessionLive(await getDb(), token.sid, token.sub))) throw new SessionEnded();
      return token;
    },
    session({ session, token }) {
      if (session.user && token.sub) session.user.id = token.sub;
      session.sessionId = token.sid;
      return session;
    },
    // Every callbackUrl next-auth handles (sign-in, sign-out, the callback-url cookie) is reduced to
    // a path on this site; next-auth's default would follow "/\t/evil" and throws on "\n/…".
    redirect({ url, baseUrl }) {
      return `${baseUrl}${safeReturnPath(url, "/", baseUrl)}`;
    },
  },
  logger: {
    // An ended session is an expected answer (signed out), not an error worth a stack trace.
    error(code, metadata) {
      if (metadata instanceof Error && metadata.name === "SessionEnded") return;
      logger("auth").error({ err: metadata, code }, `next-auth error ${code}`);
    },
  },
  events: {
    async signOut({ token }) {
      if (token?.sub && token.sid) await endOwnSession(await getDb(), token.sub, token.sid);
    },
  },
};
