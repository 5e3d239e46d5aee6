import NextAuth from "next-auth";
import type { NextRequest } from "next/server";
import { authOptions } from "@/lib/auth/options";
import { safeReturnPath } from "@/lib/safe-redirect";

const nextAuth = NextAuth(authOptions);

// next-auth refuses a callbackUrl query it cannot parse as a URL ("\n/…", "\\evil") with a 500
// before any callback runs; reduced to a path of this site first, it never gets one.
function handler(request: NextRequest, context: { params: Promise<{ nextauth: string[] }> }) {
  const callbackUrl = request.nextUrl.searchParams.get("callbackUrl");
  if (callbackUrl !== null) request.nextUrl.searchParams.set("callbackUrl", safeReturnPath(callbackUrl, "/", request.nextUrl.origin));
  return nextAuth(request, context);
}

export { handler as GET, handler as POST };
