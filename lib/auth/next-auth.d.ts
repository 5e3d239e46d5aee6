import type { DefaultSession } from "next-auth";

declare module "next-auth" {
  interface Session {
    user: DefaultSession["user"] & { id: string };
    /** The UserSession row this cookie belongs to (lib/accounts/user-sessions.ts). */
    sessionId?: string;
  }
  interface User {
    sessionId?: string;
  }
}

declare module "next-auth/jwt" {
  interface JWT {
    /** The UserSession row, checked on every request: revoking it ends this cookie. */
    sid?: string;
  }
}
