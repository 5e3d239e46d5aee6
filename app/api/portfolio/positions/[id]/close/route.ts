// POST /api/portfolio/positions/:id/close — closes one of the signed-in user's positions (the /portfolio page's Close).
import { webActor } from "@/lib/actor";
import { appServices } from "@/lib/app-services";
import { withSession } from "@/lib/api/with-session";
import { closePosition } from "@/lib/portfolio/positions";

export const POST = withSession<{ id: string }>("user", async ({ params, user }) => ({
  data: await closePosition(appServices(), webActor(user), params.id),
}));
