import { z } from "zod";

/**
 * A decimal as venues send it: a string ("0.00000571", so no precision is lost in their JSON) or,
 * from a few, a number. An empty string or anything not finite fails the answer rather than reading
 * as zero, which a borrow rate or a price could otherwise silently become.
 */
export const venueDecimal = z.union([z.string(), z.number()]).transform((value, context) => {
  const parsed = typeof value === "number" ? value : Number(value);
  if (value === "" || !Number.isFinite(parsed)) {
    context.addIssue({ code: "custom", message: `not a decimal: ${JSON.stringify(value)}` });
    return z.NEVER;
  }
  return parsed;
});
