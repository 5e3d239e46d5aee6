// POST /api/portfolio/positions — the screener's "Add to portfolio", for the signed-in user's live portfolio.
import { webActor } from "@/lib/actor";
import { appServices } from "@/lib/app-services";
import { readJson } from "@/lib/api/read-json";
import { withSession } from "@/lib/api/with-session";
import { positionInputSchema } from "@/lib/portfolio/position-schema";
import { createPosition } from "@/lib/portfolio/positions";

export const POST = withSession("user", async ({ request, user }) => {
  const actor = webActor(user);
  const body = await readJson(request, positionInputSchema);
  return { data: await createPosition(appServices(), actor, body), status: 201 };
});
