// DELETE /api/portfolio/positions/:id — removes one of the signed-in user's positions (the /portfolio page's Delete).
import { webActor } from "@/lib/actor";
import { appServices } from "@/lib/app-services";
import { withSession } from "@/lib/api/with-session";
import { deletePosition } from "@/lib/portfolio/positions";

export const DELETE = withSession<{ id: string }>("user", async ({ params, user }) => ({
  data: await deletePosition(appServices(), webActor(user), params.id),
}));
