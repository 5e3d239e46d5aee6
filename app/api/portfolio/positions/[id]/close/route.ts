// POST /api/portfolio/positions/:id/close — closes one of the signed-in user's positions (the /portfolio page's Close).
import { closePosition } from "@/lib/api/routes/close-position";
import { apiServices } from "@/lib/api/services";
import { withSession } from "@/lib/auth/with-session";
import { webActor } from "@/lib/portfolio/web-actor";

export const POST = withSession<{ id: string }>("user", async ({ params, user }) => ({
  data: await closePosition(apiServices(), webActor(user), params.id),
}));
