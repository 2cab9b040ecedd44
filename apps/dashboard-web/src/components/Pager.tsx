import { formatCredits } from '../lib/format';

export function pageCount(total: number, pageSize: number): number {
  return Math.max(1, Math.ceil(total / Math.max(1, pageSize)));
}

/** "1–20 of 45" and Previous / Next; the buttons only when there is more than one page. */
export function Pager({ page, pageSize, total, onPage, label = 'Pagination' }: { page: number; pageSize: number; total: number; onPage: (page: number) => void; label?: string }) {
  const pages = pageCount(total, pageSize);
  if (total === 0) return null;
  const first = (page - 1) * pageSize + 1;
  const last = Math.min(total, page * pageSize);
  return (
    <nav className="pager" aria-label={label}>
      <span className="pager-info">
        {formatCredits(first)}–{formatCredits(last)} of {formatCredits(total)}
      </span>
      {pages > 1 ? (
        <div className="pager-buttons">
          <button type="button" className="btn btn-secondary btn-sm" onClick={() => onPage(page - 1)} disabled={page <= 1}>
            Previous
          </button>
          <span className="pager-page" aria-current="page">
            Page {page} of {pages}
          </span>
          <button type="button" className="btn btn-secondary btn-sm" onClick={() => onPage(page + 1)} disabled={page >= pages}>
            Next
          </button>
        </div>
      ) : null}
    </nav>
  );
}
