import type { ConversationRow } from '@smsq/dashboard-api';
import { useState, type FormEvent } from 'react';
import { Link, useSearchParams } from 'react-router';
import { buildQuery } from '../../api/query';
import { useCursorPages } from '../../api/useApi';
import { ErrorAlert } from '../../components/Alert';
import { EmptyState } from '../../components/EmptyState';
import { ZonedTime } from '../../components/Time';
import { Badge, Card, Loading, PageHeader } from '../../components/ui';

export function ConversationsPage() {
  const [params, setParams] = useSearchParams();
  const search = params.get('search') ?? '';
  const [draft, setDraft] = useState(search);
  const { rows, page, more } = useCursorPages<ConversationRow>('/conversations', { search });

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setParams(new URLSearchParams(buildQuery({ search: draft }).slice(1)));
  }

  return (
    <>
      <PageHeader title="Conversations" subtitle="One thread per number: what you sent and what came back, newest thread first." />
      <form className="search-bar" role="search" onSubmit={submit}>
        <label htmlFor="conversations-search" className="sr-only">
          Search
        </label>
        <input id="conversations-search" type="search" placeholder="Search by number or text" value={draft} onChange={(e) => setDraft(e.target.value)} />
        <button type="submit" className="btn btn-primary">
          Search
        </button>
      </form>
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
                    {thread.lastText}
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
