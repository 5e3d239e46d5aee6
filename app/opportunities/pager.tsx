import Link from "next/link";
import type { ReactNode } from "react";
import type { Page } from "@/lib/pagination";

/**
 * A list page's one pager (a second copy above the table would be a second landmark of the same
 * name): the count, and links to the pages before and after, `hrefAt` giving a page's address by its offset.
 */
export function Pager({ page, count, hrefAt }: { page: Page<unknown>; count: ReactNode; hrefAt: (offset: number) => string }) {
  return (
    <nav className="pager" aria-label="Pages">
      <span>{count}</span>
      {page.offset > 0 && (
        <Link href={hrefAt(Math.max(0, page.offset - page.limit))} rel="prev">
          ← Previous
        </Link>
      )}
      {page.has_more && (
        <Link href={hrefAt(page.offset + page.limit)} rel="next">
          Next →
        </Link>
      )}
    </nav>
  );
}
