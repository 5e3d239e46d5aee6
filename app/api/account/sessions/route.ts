// GET /api/account/sessions — the signed-in user's active browser sessions, this one marked `current`.
import { withSession } from "@/lib/api/with-session";
import { listActiveSessions } from "@/lib/accounts/user-sessions";

export const GET = withSession("user", async ({ db, user }) => ({
  data: (await listActiveSessions(db, user.id, user.sessionId)).map((session) => ({
    id: session.id,
    created_at: session.createdAt.toISOString(),
    last_seen_at: session.lastSeenAt.toISOString(),
    expires_at: session.expiresAt.toISOString(),
    ip: session.ip,
    user_agent: session.userAgent,
    current: session.current,
  })),
}));
