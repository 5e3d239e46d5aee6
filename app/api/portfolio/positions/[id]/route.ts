// DELETE /api/portfolio/positions/:id — removes one of the signed-in user's positions (the /portfolio page's Delete).
import { sessionRoute } from "@/lib/api/session-route";

export const DELETE = sessionRoute("deletePortfolioPosition");
