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
  pattern: "Password must not be a sequence, a keyboard walk or a repeated character with little else",
} as const;

// The US keyboard by rows, unshifted and shifted on the same key, each row's horizontal offset in keys.
const KEY_ROWS: readonly (readonly [string, string, number])[] = [
  ["`1234567890-=", "~!@#$%^&*()_+", 0],
  ["qwertyuiop[]\\", "QWERTYUIOP{}|", 0.5],
  ["asdfghjkl;'", 'ASDFGHJKL:"', 0.75],
  ["zxcvbnm,./", "ZXCVBNM<>?", 1.25],
];
const KEY_AT = new Map<string, { row: number; col: number; x: number }>();
for (const [row, [plain, shifted, offset]] of KEY_ROWS.entries()) {
  for (const keys of [plain, shifted]) [...keys].forEach((key, col) => KEY_AT.set(key, { row, col, x: col + offset }));
}

/** How one character follows the previous: by code point within letters or digits, and on the keyboard. */
interface Move {
  code: number | null;
  key: string | null;
  adjacent: boolean;
}

const charClass = (c: string) => (/[a-z]/.test(c) ? "letter" : /\d/.test(c) ? "digit" : null);

function moveBetween(from: string, to: string): Move {
  const sameClass = charClass(from) !== null && charClass(from) === charClass(to);
  const a = KEY_AT.get(from);
  const b = KEY_AT.get(to);
  return {
    code: sameClass ? to.codePointAt(0)! - from.codePointAt(0)! : null,
    key: a && b ? `${b.row - a.row},${b.col - a.col}` : null,
    adjacent: !!a && !!b && Math.abs(b.row - a.row) <= 1 && Math.abs(b.x - a.x) <= 1,
  };
}

// Moves repeated within this many steps continue the pattern ("qaz" "wsx": the jump to the next column recurs).
const PATTERN_MEMORY = 4;
// A password with no more characters than this that a guesser could not predict from the one before is a pattern.
const MAX_PATTERN_SURPRISES = 3;

/**
 * How many of the password's characters a guesser walking sequences, keyboard rows and columns and
 * repeats could not predict from the one before: the first, and each that is neither the same
 * character, the next or previous letter or digit, a neighbouring key, nor a move (by letter or
 * digit, or across the keyboard) made in the last few steps. "aaaaaaaaaaab", "12345678901a" and
 * "qazwsxedcrfv" have two; a random twelve characters about eight.
 */
export function surprises(password: string): number {
  const chars = [...password.toLowerCase()];
  const moves: Move[] = [];
  let count = chars.length > 0 ? 1 : 0;
  for (let i = 1; i < chars.length; i++) {
    const move = moveBetween(chars[i - 1]!, chars[i]!);
    const recent = moves.slice(-PATTERN_MEMORY);
    const predictable =
      chars[i] === chars[i - 1] ||
      move.code === 1 ||
      move.code === -1 ||
      move.adjacent ||
      recent.some((m) => (move.code !== null && m.code === move.code) || (move.key !== null && m.key === move.key));
    if (!predictable) count++;
    moves.push(move);
  }
  return count;
}

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
 * repeated, a well-known common password (also with digits or symbols around it), the owner's own
 * e-mail address, or a near-repetition, sequence or keyboard walk (`surprises`).
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
  if (surprises(password) <= MAX_PATTERN_SURPRISES) return PASSWORD_PROBLEMS.pattern;
  return null;
}
