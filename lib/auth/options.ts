import type { NextAuthOptions } from "next-auth";
import CredentialsProvider from "next-auth/providers/credentials";
import { verifyCredentials } from "@/lib/accounts/accounts";
import { AppError } from "@/lib/errors";
import { requestOrigin } from "@/lib/audit";
import { getDb } from "@/lib/db";

const THIRTY_DAYS_S = 30 * 24 * 60 * 60;

/**
 * E-mail and password sign-in with JWT sessions. The session carries only the user's id; the
 * tier and everything else are read from the database on each request, so a downgrade or a
 * revocation applies at once.
 */
export const authOptions: NextAuthOptions = {
  session: { strategy: "jwt", maxAge: THIRTY_DAYS_S },
  pages: { signIn: "/signin" },
  providers: [
    CredentialsProvider({
      name: "E-mail and password",
      credentials: { email: { label: "E-mail", type: "email" }, password: { label: "Password", type: "password" } },
      async authorize(credentials, req) {
        try {
          return await verifyCredentials(await getDb(), credentials ?? {}, requestOrigin(req.headers ?? {}));
        } catch (error) {
          // next-auth hands a thrown message to the sign-in form; only the rate-limit text is safe to show.
          if (error instanceof AppError && error.code === "RATE_LIMITED") throw new Error(error.message);
          throw error;
        }
      },
    }),
  ],
  callbacks: {
    jwt({ token, user }) {
      if (user) token.sub = user.id;
      return token;
    },
    session({ session, token }) {
      if (session.user && token.sub) session.user.id = token.sub;
      return session;
    },
  },
};
