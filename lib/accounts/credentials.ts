import { z } from "zod";

export const MIN_PASSWORD_LENGTH = 12;
export const MAX_PASSWORD_LENGTH = 256;

export const emailSchema = z
  .string()
  .trim()
  .toLowerCase()
  .max(254, "E-mail address is too long")
  .pipe(z.email("Enter a valid e-mail address"));

export const passwordSchema = z
  .string()
  .min(MIN_PASSWORD_LENGTH, `Password must be at least ${MIN_PASSWORD_LENGTH} characters`)
  .max(MAX_PASSWORD_LENGTH, `Password must be at most ${MAX_PASSWORD_LENGTH} characters`);

export const credentialsSchema = z.object({ email: emailSchema, password: passwordSchema }).strict();
export type Credentials = z.infer<typeof credentialsSchema>;
