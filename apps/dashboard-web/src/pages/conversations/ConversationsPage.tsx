import type { ConversationRow } from '@smsq/dashboard-api';
import { Link } from 'react-router';
import { useCursorPages } from '../../api/useApi';
import { ErrorAlert } from '../../components/Alert';
import { EmptyState } from '../../components/EmptyState';
import { SearchBar, useSearch } from '../../components/SearchBar';
import { ZonedTime } from '../../components/Time';
import { Badge, Card, Loading, PageHeader } from '../../components/ui';
import { EncryptedLabel } from '../../encryption/MessageText';

export function ConversationsPage() {
  const search = useSearch();
  const { rows, page, more } = useCursorPages<ConversationRow>('/conversations', { search });

  return (
    <>
      <PageHeader title="Conversations" subtitle="One thread per number: what you sent and what came back, newest thread first." />
      <SearchBar id="conversations-search" placeholder="Search by number or text" />
      <ErrorAlert error={page.error} />
      {page.loading && rows.length === 0 ? <Loading /> : null}
      {page.data && rows.length === 0 ? (
        <div className="card">
          <EmptyState title={search ? `No conversation matches “${search}”` : 'No conversations yet'} icon="✉">
            Every number you send to, or hear from, gets a thread here.
          </EmptyState>
        </div>
      ) : null}
      {rows.length > 0 ? (
        <Card>
          <ul className="threads" data-testid="threads">
            {rows.map((thread) => (
              <li key={thread.number} className={thread.unread > 0 ? 'thread unread' : 'thread'}>
                <Link to={`/conversations/${encodeURIComponent(thread.number)}`} className="thread-link">
                  <span className="thread-number">{thread.number}</span>
                  {thread.unread > 0 ? <Badge tone="blue">{thread.unread === 1 ? '1 unread' : `${thread.unread} unread`}</Badge> : null}
                  <span className="thread-time muted small">
                    <ZonedTime iso={thread.lastAt} timeZone={thread.timeZone} />
                  </span>
                  <span className="thread-last muted">
                    {thread.lastDirection === 'out' ? 'You: ' : ''}
                    {/* A cut sealed message opens to nothing: the thread shows the whole one. */}
                    {thread.lastEncrypted ? <EncryptedLabel /> : thread.lastText}
                  </span>
                </Link>
              </li>
            ))}
          </ul>
          {more ? (
            <button type="button" className="btn btn-secondary" onClick={more}>
              Show more
            </button>
          ) : null}
        </Card>
      ) : null}
    </>
  );
}
