import path from "node:path";
import { z } from "zod";

const envSchema = z.object({
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, "DATABASE_URL must be a postgres:// or postgresql:// URL")
    .optional(),
  DATA_DIR: z.string().min(1).default(".data"),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).optional(),
});

export type ServiceEnv = z.infer<typeof envSchema>;

/** Parses the service's configuration; a bad value stops start-up with a message naming it. */
export function readEnv(source: NodeJS.ProcessEnv = process.env): ServiceEnv {
  const parsed = envSchema.safeParse({
    ...source,
    DATABASE_URL: source.DATABASE_URL || undefined,
    DATA_DIR: source.DATA_DIR || undefined,
    PORT: source.PORT || undefined,
    HOST: source.HOST || undefined,
  });
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ");
    throw new Error(`Invalid configuration: ${problems}`);
  }
  return parsed.data;
}

/** Absolute path of the directory holding embedded data (PGlite files, generated secrets). */
export function dataDir(env: ServiceEnv = readEnv()): string {
  return path.resolve(env.DATA_DIR);
}
