// POST /api/simulations — the screener's "Simulate": runs and stores a simulation in live mode for the signed-in user.
import { sessionRoute } from "@/lib/api/session-route";

export const POST = sessionRoute("createSimulation");
