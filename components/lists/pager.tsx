import Link from "next/link";
import { listHref, type ListState } from "@/components/lists/list-href";

// Under a paged list: where this page is, and links to the first, previous, next and last.

export function Pager({
  path,
  state,
  page,
  pages,
  total,
  noun,
}: {
  path: string;
  state: ListState;
  page: number;
  pages: number;
  total: number;
  noun: string;
}) {
  const to = (p: number) => listHref(path, state, { page: p === 1 ? undefined : p });
  return (
    <nav className="pager" aria-label={`${noun} pages`} data-testid="pager">
      <span className="muted" data-testid="pager-status">
        Page {page.toLocaleString("en-US")} of {pages.toLocaleString("en-US")} ·{" "}
        {total.toLocaleString("en-US")} {noun}
      </span>
      {page > 1 && (
        <>
          <Link href={to(1)} data-testid="pager-first">
            « First
          </Link>
          <Link href={to(page - 1)} rel="prev" data-testid="pager-prev">
            ‹ Previous
          </Link>
        </>
      )}
      {page < pages && (
        <>
          <Link href={to(page + 1)} rel="next" data-testid="pager-next">
            Next ›
          </Link>
          <Link href={to(pages)} data-testid="pager-last">
            Last »
          </Link>
        </>
      )}
    </nav>
  );
}
