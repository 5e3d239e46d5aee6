// POST /api/account/fees — Account → Trading settings: sets or clears the signed-in user's taker fee per venue, as PATCH /v1/account/fees does.
import { sessionRoute } from "@/lib/api/session-route";

export const POST = sessionRoute("updateAccountFees");
