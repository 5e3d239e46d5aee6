// DELETE /api/portfolio/positions/:id — removes one of the signed-in user's positions (the /portfolio page's Delete).
import { deletePosition } from "@/lib/api/routes/delete-position";
import { apiServices } from "@/lib/api/services";
import { withSession } from "@/lib/auth/with-session";
import { webActor } from "@/lib/portfolio/web-actor";

export const DELETE = withSession<{ id: string }>("user", async ({ params, user }) => ({
  data: await deletePosition(apiServices(), webActor(user), params.id),
}));
