// GET /healthz through Next (for `next dev`); `npm start` answers it in server.ts.
import { apiRouteHandlers } from "@/lib/api/next-route";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

export const { GET, HEAD } = apiRouteHandlers();
