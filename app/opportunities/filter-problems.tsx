import Link from "next/link";
import type { FieldProblem } from "@/lib/errors";

/** A list page's refused filters, each named with why, and a way back to the unfiltered list. */
export function FilterProblems({ problems, resetHref, resetLabel }: { problems: readonly FieldProblem[]; resetHref: string; resetLabel: string }) {
  return (
    <div className="notice error-notice" role="alert">
      <p>
        <strong>These filters are not valid:</strong>
      </p>
      <ul>
        {problems.map((p) => (
          <li key={p.field}>
            <code>{p.field}</code>: {p.message}
          </li>
        ))}
      </ul>
      <p>
        <Link href={resetHref}>{resetLabel}</Link>
      </p>
    </div>
  );
}
