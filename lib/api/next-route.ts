import { appServices, type AppServices } from "@/lib/app-services";
import { parseTrustedProxies } from "@/lib/config/client-address";
import { createApiApp, NEXT_MOUNT } from "./app";
import { withClientAddress } from "./next-client-address";

/**
 * Route-handler exports that hand every method to the API app (for `next dev` and serverless
 * hosts), each request with the client's address in X-Real-IP as server.ts would set it.
 * `services` is for tests; the route module uses the process's.
 */
export function apiRouteHandlers(services: () => AppServices = appServices) {
  const app = createApiApp(services, NEXT_MOUNT);
  // A malformed TRUSTED_PROXIES fails loading the route, as it stops server.ts from starting.
  const trusted = parseTrustedProxies(process.env.TRUSTED_PROXIES);
  const handle = (request: Request) => app.fetch(withClientAddress(request, trusted));
  return { GET: handle, HEAD: handle, POST: handle, PUT: handle, PATCH: handle, DELETE: handle, OPTIONS: handle };
}
