import { appServices } from "@/lib/app-services";
import { createApiApp, NEXT_MOUNT } from "./app";

const app = createApiApp(appServices, NEXT_MOUNT);

/** Route-handler exports that hand every method to the API app (for `next dev` and serverless hosts). */
export function apiRouteHandlers() {
  const handle = (request: Request) => app.fetch(request);
  return { GET: handle, HEAD: handle, POST: handle, PUT: handle, PATCH: handle, DELETE: handle, OPTIONS: handle };
}
