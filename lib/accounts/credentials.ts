import { z } from "zod";
import { PASSWORD_PROBLEMS, passwordProblem } from "./password-strength";

export const MIN_PASSWORD_LENGTH = 12;
export const MAX_PASSWORD_LENGTH = 256;

export const emailSchema = z
  .string()
  .trim()
  .toLowerCase()
  .max(254, "E-mail address is too long")
  .pipe(z.email("Enter a valid e-mail address"));

/** A new password: long enough, and not trivially weak (lib/accounts/password-strength.ts). */
export const passwordSchema = z
  .string()
  .min(MIN_PASSWORD_LENGTH, `Password must be at least ${MIN_PASSWORD_LENGTH} characters`)
  .max(MAX_PASSWORD_LENGTH, `Password must be at most ${MAX_PASSWORD_LENGTH} characters`)
  .superRefine((password, ctx) => {
    const problem = passwordProblem(password);
    if (problem) ctx.addIssue({ code: "custom", message: problem });
  });

/** Refuses a password built from the account's own e-mail address, reported on the password field. */
export function assertPasswordFitsEmail(password: string, email: string, ctx: z.RefinementCtx) {
  if (passwordProblem(password, email) === PASSWORD_PROBLEMS.email) {
    ctx.addIssue({ code: "custom", path: ["password"], message: PASSWORD_PROBLEMS.email });
  }
}

export const credentialsSchema = z
  .object({ email: emailSchema, password: passwordSchema })
  .strict()
  .superRefine((credentials, ctx) => assertPasswordFitsEmail(credentials.password, credentials.email, ctx));
export type Credentials = z.infer<typeof credentialsSchema>;

export const passwordResetRequestSchema = z.strictObject({ email: emailSchema });

export const passwordResetSchema = z.strictObject({
  token: z.string("The reset link is missing its token").min(1, "The reset link is missing its token").max(200),
  password: passwordSchema,
});
