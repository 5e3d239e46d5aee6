// POST /api/portfolio/positions — the screener's "Add to portfolio", for the signed-in user's live portfolio.
import { sessionRoute } from "@/lib/api/session-route";

export const POST = sessionRoute("createPortfolioPosition");
