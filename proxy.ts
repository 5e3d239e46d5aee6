// Next's proxy (the file convention once called middleware): every page and /api/* response gets the
// security headers, and each page a fresh CSP nonce that Next puts on its own inline bootstrap
// scripts (it reads the nonce from the request's Content-Security-Policy header). /v1 and /healthz
// are the API app's, which sets its own; static chunks carry no policy to enforce.
import { NextResponse, type NextRequest } from "next/server";
import { isPublicHttps } from "@/lib/config/public-url";
import { baselineSecurityHeaders, newNonce, pageContentSecurityPolicy } from "@/lib/api/security-headers";

export function proxy(request: NextRequest) {
  const https = isPublicHttps();
  const nonce = newNonce();
  const policy = pageContentSecurityPolicy(nonce, { https, dev: process.env.NODE_ENV === "development" });
  const requestHeaders = new Headers(request.headers);
  requestHeaders.set("x-nonce", nonce);
  requestHeaders.set("Content-Security-Policy", policy);
  const response = NextResponse.next({ request: { headers: requestHeaders } });
  response.headers.set("Content-Security-Policy", policy);
  for (const [name, value] of Object.entries(baselineSecurityHeaders(https))) response.headers.set(name, value);
  return response;
}

export const config = {
  matcher: [
    {
      source: "/((?!v1(?:/|$)|healthz$|_next/static|_next/image).*)",
      // Prefetches render no HTML of their own; a nonce there would only cost time.
      missing: [
        { type: "header", key: "next-router-prefetch" },
        { type: "header", key: "purpose", value: "prefetch" },
      ],
    },
  ],
};
