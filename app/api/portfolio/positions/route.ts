// POST /api/portfolio/positions — the screener's "Add to portfolio", for the signed-in user's live portfolio.
import { readJson } from "@/lib/api/read-json";
import { createPosition } from "@/lib/api/routes/create-position";
import { apiServices } from "@/lib/api/services";
import { withSession } from "@/lib/auth/with-session";
import { positionInputSchema } from "@/lib/portfolio/position-schema";
import { webActor } from "@/lib/portfolio/web-actor";

export const POST = withSession("user", async ({ request, user }) => {
  const actor = webActor(user);
  const body = await readJson(request, positionInputSchema);
  return { data: await createPosition(apiServices(), actor, body), status: 201 };
});
