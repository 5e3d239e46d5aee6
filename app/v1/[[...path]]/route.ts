// Mounts the /v1 API app for `next dev` and serverless hosts; `npm start` serves it without Next.
import { apiRouteHandlers } from "@/lib/api/next-route";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = apiRouteHandlers();
