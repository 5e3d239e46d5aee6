import { z } from "zod";

/** A whole number of at least 1, `fallback` when the variable is unset or empty. */
export const positiveInt = (fallback: number) => z.coerce.number().int().positive().default(fallback);

/** An on/off switch: `1` or `true` is on; unset, empty, `0` or `false` is off. */
export const flag = z.enum(["", "0", "1", "true", "false"]).transform((v) => v === "1" || v === "true");

/**
 * The settings `schema` names, read from the environment: an empty variable counts as unset, and a
 * bad value stops start-up with a message naming the variable (docs/operations.md lists them all).
 */
export function readSettings<S extends z.ZodObject>(schema: S, source: NodeJS.ProcessEnv): z.infer<S> {
  const present = Object.fromEntries(Object.keys(schema.shape).map((k) => [k, source[k] || undefined]));
  const parsed = schema.safeParse(present);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ");
    throw new Error(`Invalid configuration: ${problems}`);
  }
  return parsed.data;
}
