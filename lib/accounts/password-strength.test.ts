import { describe, expect, it } from "vitest";
import { credentialsSchema, passwordSchema } from "./credentials";
import { commonPasswords, PASSWORD_PROBLEMS, passwordProblem, surprises } from "./password-strength";

describe("passwordProblem", () => {
  it("bundles a list of hundreds of common passwords, lower case and without comments", () => {
    const list = commonPasswords();
    expect(list.size).toBeGreaterThan(500);
    for (const known of ["123456", "password", "qwerty", "iloveyou", "letmein", "123456789012"]) expect(list.has(known)).toBe(true);
    expect([...list].every((p) => p === p.toLowerCase() && !p.startsWith("#"))).toBe(true);
  });

  it.each([
    ["a common password of the list", "qwertyuiopasdfghjkl"],
    ["the same in another case", "QwertyUiopAsdfGHJKL"],
    ["a common word with digits and symbols around it", "Password123456!"],
    ["symbols in front", "!!!Sunshine2024"],
    ["a famous passphrase, spaces and all", "correct horse battery staple"],
    ["a long listed number", "123456789012"],
  ])("refuses %s as common", (_label, password) => {
    expect(passwordProblem(password)).toBe(PASSWORD_PROBLEMS.common);
  });

  it.each([
    ["one character repeated", "aaaaaaaaaaaa"],
    ["one symbol repeated", "!!!!!!!!!!!!!"],
    ["a short pattern repeated", "abcabcabcabc"],
    ["a word doubled", "Xk9#pQXk9#pQ"],
  ])("refuses %s", (_label, password) => {
    expect(passwordProblem(password)).toBe(PASSWORD_PROBLEMS.repeated);
  });

  it.each([
    ["a character repeated with one other after it", "aaaaaaaaaaab"],
    ["a digit repeated with the next one after it", "111111111112"],
    ["a run of digits with a letter after it", "12345678901a"],
    ["a walk down the keyboard's columns", "qazwsxedcrfv"],
    ["a walk along the keyboard's rows", "zxcvbnmasdfg"],
    ["a repeated pattern with its last character changed", "abcabcabcabd"],
  ])("refuses %s", (_label, password) => {
    expect(passwordProblem(password)).toBe(PASSWORD_PROBLEMS.pattern);
  });

  it("counts how much of a password a guesser walking sequences and keys could not predict", () => {
    expect(surprises("qazwsxedcrfv")).toBe(2);
    expect(surprises("aaaaaaaaaaab")).toBe(1);
    expect(surprises("Wq8#vL2!pZr0")).toBeGreaterThan(6);
  });

  it("refuses whitespace only", () => {
    expect(passwordProblem("            ")).toBe(PASSWORD_PROBLEMS.whitespace);
    expect(passwordProblem("\t \n \u00a0        ")).toBe(PASSWORD_PROBLEMS.whitespace);
  });

  it("refuses the e-mail address or its name part, in any case", () => {
    expect(passwordProblem("margaret.hamilton", "Margaret.Hamilton@example.com")).toBe(PASSWORD_PROBLEMS.email);
    expect(passwordProblem("MARGARET.HAMILTON1969", "margaret.hamilton@example.com")).toBe(PASSWORD_PROBLEMS.email);
    expect(passwordProblem("x margaret.hamilton@example.com", "margaret.hamilton@example.com")).toBe(PASSWORD_PROBLEMS.email);
    expect(passwordProblem("margaret.hamilton", "someone.else@example.com")).toBeNull();
  });

  it.each(["violet tractor sings at noon", "tangerine-ocelot-furnace-42", "Wq8#vL2!pZr0", "Tr0ub4dor&3x", "marble7kettle", "830192746512"])(
    "accepts %s",
    (password) => {
      expect(passwordProblem(password, "trader@example.com")).toBeNull();
    },
  );
});

describe("the password rules in the schemas", () => {
  it("name the password field with the rule's message", () => {
    expect(passwordSchema.safeParse("password1234").error?.issues[0]?.message).toBe(PASSWORD_PROBLEMS.common);
    expect(passwordSchema.safeParse("short").error?.issues[0]?.message).toMatch(/at least 12 characters/);
    const credentials = credentialsSchema.safeParse({ email: "Satoshi.Nakamoto@example.com", password: "satoshi.nakamoto" });
    expect(credentials.error?.issues).toEqual([expect.objectContaining({ path: ["password"], message: PASSWORD_PROBLEMS.email })]);
    expect(credentialsSchema.safeParse({ email: "a@example.com", password: "violet tractor sings at noon" }).success).toBe(true);
  });
});
