import { Link } from 'react-router';
import { EmptyState } from '../components/EmptyState';
import { PageHeader } from '../components/ui';

export function NotFoundPage() {
  return (
    <>
      <PageHeader title="Page not found" />
      <div className="card">
        <EmptyState title="There is nothing at this address" icon="?" action={<Link className="btn btn-primary" to="/">Go to the overview</Link>}>
          The link may be old, or the page may belong to another account. Check the address, or start again from the overview.
        </EmptyState>
      </div>
    </>
  );
}
