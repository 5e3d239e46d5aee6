import NextAuth from "next-auth";
import type { NextRequest } from "next/server";
import { authOptions } from "@/lib/auth/options";
import { safeReturnPath } from "@/lib/safe-redirect";

const nextAuth = NextAuth(authOptions);

// next-auth refuses a callbackUrl query it cannot parse as a URL ("\n/…", "\\evil") with a 500
// before any callback runs; reduced to a path of this site first, it never gets one.
async function handler(request: NextRequest, context: { params: Promise<{ nextauth: string[] }> }) {
  // The credentials callback takes only the sign-in form's POST; next-auth answers a GET with a 500.
  const [action, provider] = (await context.params).nextauth;
  if (action === "callback" && provider === "credentials" && request.method !== "POST") {
    return Response.json({ error: "Method not allowed: sign in with POST" }, { status: 405, headers: { Allow: "POST" } });
  }
  const callbackUrl = request.nextUrl.searchParams.get("callbackUrl");
  if (callbackUrl !== null) request.nextUrl.searchParams.set("callbackUrl", safeReturnPath(callbackUrl, "/", request.nextUrl.origin));
  return nextAuth(request, context);
}

export { handler as GET, handler as POST };
