import type { InboxRow, Page } from '@smsq/dashboard-api';
import { useSearchParams } from 'react-router';
import { buildQuery, parsePage } from '../../api/query';
import { useApi } from '../../api/useApi';
import { ErrorAlert } from '../../components/Alert';
import { EmptyState } from '../../components/EmptyState';
import { Pager } from '../../components/Pager';
import { SearchBar, useSearch } from '../../components/SearchBar';
import { ZonedTime } from '../../components/Time';
import { Card, Loading, PageHeader } from '../../components/ui';
import { MessageText } from '../../encryption/MessageText';
import { PassphraseControl } from '../../encryption/PassphraseControl';
import { formatRelative } from '../../lib/format';
import { groupByNumber } from '../../lib/inbox';

export function InboxPage() {
  const [params, setParams] = useSearchParams();
  const search = useSearch();
  const page = parsePage(params.get('page'));
  const inbox = useApi<Page<InboxRow>>(`/inbox${buildQuery({ search, page })}`);
  const groups = inbox.data ? groupByNumber(inbox.data.items) : [];

  return (
    <>
      <PageHeader title="Inbox" subtitle="Replies to your messages, grouped by number, newest first." actions={<PassphraseControl />} />
      <SearchBar id="inbox-search" placeholder="Search by number or text" clearable />
      <ErrorAlert error={inbox.error} />
      {inbox.loading && !inbox.data ? <Loading /> : null}
      {inbox.data && groups.length === 0 ? (
        <div className="card">
          {search ? (
            <EmptyState title={`No replies match “${search}”`} icon="⌕">
              Search looks at the sender’s number and the message text (not the text of encrypted replies, which smsq cannot read). Try fewer characters.
            </EmptyState>
          ) : (
            <EmptyState title="No replies yet" icon="✉">
              When someone answers one of your messages, the reply lands here. Replies arrive through your gateway, so keep it online.
            </EmptyState>
          )}
        </div>
      ) : null}
      <div className="inbox-groups">
        {groups.map((group) => (
          <Card key={group.from} title={group.from} className="inbox-group" actions={<span className="muted small">{group.messages.length === 1 ? '1 message' : `${group.messages.length} messages`} · last {formatRelative(group.latestAt)}</span>}>
            <ul className="messages">
              {group.messages.map((message) => (
                <li key={message.id} className="message">
                  <p className="message-text">
                    <MessageText message={message.message} encrypted={message.encrypted} />
                  </p>
                  <p className="message-meta">
                    <ZonedTime iso={message.receivedAt} timeZone={message.timeZone} />
                    {message.phoneId !== null ? ` · via phone #${message.phoneId}` : ''}
                  </p>
                </li>
              ))}
            </ul>
          </Card>
        ))}
      </div>
      {inbox.data ? <Pager page={inbox.data.page} pageSize={inbox.data.pageSize} total={inbox.data.total} onPage={(next) => setParams(new URLSearchParams(buildQuery({ search, page: next > 1 ? next : undefined }).slice(1)))} /> : null}
    </>
  );
}
