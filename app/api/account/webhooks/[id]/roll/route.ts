// POST /api/account/webhooks/{id}/roll — a new signing secret (shown once); the previous one signs beside it for the overlap.
import { sessionRoute } from "@/lib/api/session-route";

export const POST = sessionRoute("rollWebhookEndpointSecret");
