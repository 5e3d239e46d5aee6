import { readFileSync } from "node:fs";
import path from "node:path";

// Read from the repository at first use, like the client archives: the server runs from its root.
const LIST_FILE = path.join(process.cwd(), "lib/accounts/common-passwords.txt");

let common: ReadonlySet<string> | undefined;

/** The bundled list of well-known common passwords, lower case. */
export function commonPasswords(): ReadonlySet<string> {
  common ??= new Set(
    readFileSync(LIST_FILE, "utf8")
      .split("\n")
      .map((line) => line.trim().toLowerCase())
      .filter((line) => line && !line.startsWith("#")),
  );
  return common;
}

export const PASSWORD_PROBLEMS = {
  whitespace: "Password must not be only spaces",
  repeated: "Password must not be one character or a short pattern repeated",
  common: "This password is too common: choose one that is harder to guess, such as a few unrelated words",
  email: "Password must not be your e-mail address or contain its name part",
} as const;

/**
 * The core a guesser tries first: "Password123!" and "!!password2024" are "password". Digits and
 * symbols at either end add little, since attackers' rule sets append and prepend exactly those.
 */
function core(password: string): string {
  return password.toLowerCase().replace(/^[\d\W_]+|[\d\W_]+$/g, "");
}

/** True when the text is one shorter unit repeated ("aaaa", "abcabcabcabc", "hunter2hunter2"): doubling adds about a bit. */
function isRepetition(text: string): boolean {
  const chars = [...text];
  for (let size = 1; size <= chars.length / 2; size++) {
    if (chars.length % size === 0 && chars.slice(0, size).join("").repeat(chars.length / size) === text) return true;
  }
  return false;
}

/**
 * What is trivially weak about a password of acceptable length, or null. Pure, so sign-up, the
 * password reset and their tests apply one rule: only spaces, one character or a short pattern
 * repeated, a well-known common password (also with digits or symbols around it), or the owner's
 * own e-mail address.
 */
export function passwordProblem(password: string, email?: string): string | null {
  if (password.trim() === "") return PASSWORD_PROBLEMS.whitespace;
  const lower = password.toLowerCase();
  if (isRepetition(lower)) return PASSWORD_PROBLEMS.repeated;
  const list = commonPasswords();
  const stripped = core(password);
  const compact = lower.replace(/\s+/g, "");
  if (list.has(lower) || list.has(compact) || (stripped.length > 0 && list.has(stripped)) || list.has(core(compact))) {
    return PASSWORD_PROBLEMS.common;
  }
  if (stripped.length > 0 && isRepetition(stripped)) return PASSWORD_PROBLEMS.repeated;
  if (email) {
    const address = email.trim().toLowerCase();
    const local = address.split("@")[0] ?? "";
    if (lower.includes(address)) return PASSWORD_PROBLEMS.email;
    // A name part of 4 characters or more inside the password is what a targeted guesser tries first.
    if (local && (stripped === local || compact === local || (local.length >= 4 && lower.includes(local)))) return PASSWORD_PROBLEMS.email;
  }
  return null;
}
