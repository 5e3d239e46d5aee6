// POST /api/portfolio/positions/:id/close — closes one of the signed-in user's positions (the /portfolio page's Close).
import { sessionRoute } from "@/lib/api/session-route";

export const POST = sessionRoute("closePortfolioPosition");
