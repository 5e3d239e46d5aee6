// next-auth's `GET /api/auth/session` (through next-auth's own handler, with the service's options):
// a cookie whose session is live answers the user and is refreshed; one whose session was signed
// out, revoked or never recorded answers signed out ({}) and is cleared, never re-issued. And the
// credentials callback, which takes only the sign-in form's POST, refuses a GET with 405.
import { mkdtempSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import { NextRequest } from "next/server";
import { encode } from "next-auth/jwt";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createUserSession, endOwnSession, revokeSessions } from "@/lib/accounts/user-sessions";
import { GET as authRouteGet } from "@/app/api/auth/[...nextauth]/route";
import { authOptions } from "@/lib/auth/options";
import { getDb, openServiceDatabase } from "@/lib/db";
import { releaseDataDirLock } from "@/lib/db/data-dir-lock";
import { restoreEnv, saveEnv } from "@/tests/support/saved-env";
import { captureLogs } from "@/tests/support/capture-logs";

// The jwt callback reads the process's own database: a throw-away embedded one (in CI's PostgreSQL pass too).
const dir = mkdtempSync(path.join(os.tmpdir(), "fods-auth-session-"));
const saved = saveEnv("DATA_DIR", "DATABASE_URL", "NEXTAUTH_SECRET", "NEXTAUTH_URL");
const SECRET = "auth-session-endpoint-test-secret";
const COOKIE = "next-auth.session-token";

// next-auth's core handler, which its route handler calls with the request's cookies; the package
// does not export it, so it is loaded by path.
interface InternalResponse {
  status?: number;
  body?: unknown;
  cookies?: { name: string; value: string; options: { maxAge?: number } }[];
}
const { AuthHandler } = createRequire(import.meta.url)(path.resolve("node_modules/next-auth/core/index.js")) as {
  AuthHandler: (params: { req: Request; options: typeof authOptions }) => Promise<InternalResponse>;
};

beforeAll(async () => {
  process.env.DATA_DIR = dir;
  process.env.DATABASE_URL = "";
  process.env.NEXTAUTH_SECRET = SECRET;
  process.env.NEXTAUTH_URL = "http://localhost:3000";
  await openServiceDatabase();
}, 120_000);
afterAll(async () => {
  await (await openServiceDatabase()).close();
  releaseDataDirLock(dir);
  rmSync(dir, { recursive: true, force: true });
  restoreEnv(saved);
});

let counter = 0;
async function signedIn() {
  const db = await getDb();
  const user = await db.user.create({ data: { email: `session-endpoint-${++counter}@example.com`, passwordHash: "not-used" } });
  const session = await createUserSession(db, user.id, { ip: "203.0.113.5", userAgent: "vitest" });
  const cookie = await encode({ token: { sub: user.id, sid: session.id, email: user.email }, secret: SECRET });
  return { user, sessionId: session.id, cookie };
}

async function getSession(cookie: string) {
  const request = new Request("http://localhost:3000/api/auth/session", { headers: { cookie: `${COOKIE}=${cookie}` } });
  // As next-auth's route handler calls it: the secret from NEXTAUTH_SECRET.
  const answer = await AuthHandler({ req: request, options: { ...authOptions, secret: SECRET } });
  const sessionCookies = (answer.cookies ?? []).filter((c) => c.name === COOKIE);
  return { status: answer.status ?? 200, body: answer.body as Record<string, unknown>, sessionCookies };
}

describe("GET /api/auth/session", () => {
  it("answers a live session's user and refreshes its cookie", async () => {
    const { user, cookie } = await signedIn();
    const answer = await getSession(cookie);
    expect(answer.body).toMatchObject({ user: { id: user.id } });
    expect(answer.sessionCookies).toHaveLength(1);
    expect(answer.sessionCookies[0]!.value).not.toBe("");
  });

  it.each([
    ["signed out", async (userId: string, sessionId: string) => endOwnSession(await getDb(), userId, sessionId)],
    ["revoked everywhere", async (userId: string) => void (await revokeSessions(await getDb(), userId))],
  ])("answers a %s session as signed out and clears its cookie instead of refreshing it", async (_label, end) => {
    const { user, sessionId, cookie } = await signedIn();
    await end(user.id, sessionId);
    const logged = vi.spyOn(console, "error");
    const logs = captureLogs();
    const answer = await getSession(cookie).finally(logs.restore);
    expect(answer.body).toEqual({});
    expect(answer.sessionCookies.every((c) => c.value === "" && c.options.maxAge === 0)).toBe(true);
    expect(logged, "an ended session is not an error").not.toHaveBeenCalled();
    expect(logs.records().filter((r) => r.level === "error"), "an ended session is not an error").toEqual([]);
    logged.mockRestore();
  });

  it("answers a cookie that names no recorded session as signed out", async () => {
    const { user } = await signedIn();
    const cookie = await encode({ token: { sub: user.id, email: user.email }, secret: SECRET });
    const answer = await getSession(cookie);
    expect(answer.body).toEqual({});
    expect(answer.sessionCookies.every((c) => c.value === "")).toBe(true);
  });
});

describe("GET /api/auth/callback/credentials", () => {
  it("answers 405 naming POST, not next-auth's 500", async () => {
    const request = new NextRequest("http://localhost:3000/api/auth/callback/credentials");
    const answer = await authRouteGet(request, { params: Promise.resolve({ nextauth: ["callback", "credentials"] }) });
    expect(answer.status).toBe(405);
    expect(answer.headers.get("allow")).toBe("POST");
  });
});
