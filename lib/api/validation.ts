import type { z } from "zod";
import type { FieldProblem } from "./errors";

/** zod issues as the `details` of a VALIDATION_ERROR: one entry per field, first problem wins. */
export function zodDetails(error: z.ZodError): FieldProblem[] {
  const seen = new Set<string>();
  const details: FieldProblem[] = [];
  for (const issue of error.issues) {
    const field = issue.path.join(".") || "body";
    if (seen.has(field)) continue;
    seen.add(field);
    details.push({ field, message: issue.message });
  }
  return details;
}
