import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";

/**
 * NEXTAUTH_SECRET signs session cookies. When the operator sets none, a random one is generated
 * once and kept under the data directory (never in the repository), so sessions survive restarts.
 */
export function ensureAuthSecret(dataDirectory: string, env: NodeJS.ProcessEnv = process.env): string {
  if (env.NEXTAUTH_SECRET) return env.NEXTAUTH_SECRET;
  const file = path.join(dataDirectory, "nextauth-secret");
  let secret: string;
  try {
    secret = fs.readFileSync(file, "utf8").trim();
  } catch {
    fs.mkdirSync(dataDirectory, { recursive: true });
    secret = randomBytes(32).toString("base64url");
    fs.writeFileSync(file, secret, { mode: 0o600 });
  }
  env.NEXTAUTH_SECRET = secret;
  return secret;
}
