import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { ensurePrivateDir } from "./private-dir";

/**
 * NEXTAUTH_SECRET signs session cookies. When the operator sets none, a random one is generated
 * once and kept under the data directory (never in the repository), so sessions survive restarts.
 * The directory is owner-only and the file 0600: whoever reads it can forge any session.
 */
export function ensureAuthSecret(dataDirectory: string, env: NodeJS.ProcessEnv = process.env): string {
  if (env.NEXTAUTH_SECRET) return env.NEXTAUTH_SECRET;
  const file = path.join(dataDirectory, "nextauth-secret");
  ensurePrivateDir(dataDirectory);
  let secret: string;
  try {
    secret = fs.readFileSync(file, "utf8").trim();
    // Written before this rule (or by hand) with the default umask: tighten it.
    if ((fs.statSync(file).mode & 0o077) !== 0) fs.chmodSync(file, 0o600);
  } catch {
    secret = randomBytes(32).toString("base64url");
    fs.writeFileSync(file, secret, { mode: 0o600 });
  }
  env.NEXTAUTH_SECRET = secret;
  return secret;
}
