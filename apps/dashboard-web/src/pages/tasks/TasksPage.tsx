import type { Page, TaskRow, TaskStatus } from '@smsq/dashboard-api';
import { useState, type FormEvent } from 'react';
import { Link, useSearchParams } from 'react-router';
import { buildQuery, parsePage } from '../../api/query';
import { useApi } from '../../api/useApi';
import { ErrorAlert } from '../../components/Alert';
import { EmptyState } from '../../components/EmptyState';
import { Pager } from '../../components/Pager';
import { LocalTime } from '../../components/Time';
import { Card, Field, Loading, PageHeader, StatusBadge } from '../../components/ui';
import { MessageText } from '../../encryption/MessageText';
import { PassphraseControl } from '../../encryption/PassphraseControl';

export const TASK_STATUSES: TaskStatus[] = ['pending', 'claimed', 'sent', 'failed'];

export function TasksPage() {
  const [params, setParams] = useSearchParams();
  const filters = {
    status: params.get('status') ?? '',
    from: params.get('from') ?? '',
    to: params.get('to') ?? '',
    recipient: params.get('recipient') ?? '',
  };
  const page = parsePage(params.get('page'));
  const [draft, setDraft] = useState(filters);
  const tasks = useApi<Page<TaskRow>>(`/tasks${buildQuery({ ...filters, page })}`);
  const filtered = Object.values(filters).some((value) => value !== '');

  function apply(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const next = new URLSearchParams(buildQuery({ ...draft }).slice(1));
    setParams(next);
  }
  function clear() {
    setDraft({ status: '', from: '', to: '', recipient: '' });
    setParams(new URLSearchParams());
  }
  function goTo(nextPage: number) {
    setParams(new URLSearchParams(buildQuery({ ...filters, page: nextPage > 1 ? nextPage : undefined }).slice(1)));
  }

  return (
    <>
      <PageHeader title="Tasks" subtitle="Every SMS you queued, newest first. Open one to see its attempts and errors." actions={<PassphraseControl />} />
      <Card>
        <form className="filters" onSubmit={apply} role="search">
          <Field label="Status">
            {(props) => (
              <select {...props} value={draft.status} onChange={(e) => setDraft({ ...draft, status: e.target.value })}>
                <option value="">All statuses</option>
                {TASK_STATUSES.map((status) => (
                  <option key={status} value={status}>
                    {status}
                  </option>
                ))}
              </select>
            )}
          </Field>
          <Field label="From">{(props) => <input {...props} type="date" value={draft.from} max={draft.to || undefined} onChange={(e) => setDraft({ ...draft, from: e.target.value })} />}</Field>
          <Field label="To">{(props) => <input {...props} type="date" value={draft.to} min={draft.from || undefined} onChange={(e) => setDraft({ ...draft, to: e.target.value })} />}</Field>
          <Field label="Recipient">{(props) => <input {...props} type="search" inputMode="tel" placeholder="+381…" value={draft.recipient} onChange={(e) => setDraft({ ...draft, recipient: e.target.value })} />}</Field>
          <div className="filter-actions">
            <button type="submit" className="btn btn-primary">
              Apply filters
            </button>
            {filtered ? (
              <button type="button" className="btn btn-ghost" onClick={clear}>
                Clear
              </button>
            ) : null}
          </div>
        </form>
      </Card>
      <Card>
        <ErrorAlert error={tasks.error} />
        {tasks.loading && !tasks.data ? <Loading /> : null}
        {tasks.data && tasks.data.items.length === 0 ? (
          filtered ? (
            <EmptyState
              title="No tasks match these filters"
              icon="⌕"
              action={
                <button type="button" className="btn btn-secondary" onClick={clear}>
                  Clear filters
                </button>
              }
            >
              Try a wider date range, another status or part of the number.
            </EmptyState>
          ) : (
            <EmptyState title="No tasks yet" icon="✉" action={<Link className="btn btn-primary" to="/keys">Get an API key</Link>}>
              Queue an SMS with <code>POST /smsapi/create-task</code> and your API key; each one appears here with its status.
            </EmptyState>
          )
        ) : null}
        {tasks.data && tasks.data.items.length > 0 ? (
          <>
            <div className="table-wrap" aria-busy={tasks.loading}>
              <table>
                <caption className="sr-only">Tasks</caption>
                <thead>
                  <tr>
                    <th scope="col">Task</th>
                    <th scope="col">Recipient</th>
                    <th scope="col">Message</th>
                    <th scope="col">Status</th>
                    <th scope="col">Scheduled</th>
                    <th scope="col" className="num">
                      Attempts
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {tasks.data.items.map((task) => (
                    <tr key={task.id} data-testid={`task-row-${task.id}`}>
                      <td>
                        <Link to={`/tasks/${task.id}`}>#{task.id}</Link>
                      </td>
                      <td className="nowrap">{task.recipient}</td>
                      <td className="message-cell" title={task.encrypted ? undefined : task.message}>
                        <MessageText message={task.message} encrypted={task.encrypted} />
                      </td>
                      <td>
                        <StatusBadge status={task.status} />
                      </td>
                      <td className="nowrap">
                        <LocalTime value={task.scheduledAt} timeZone={task.timeZone} stacked />
                      </td>
                      <td className="num">{task.attempts}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
            <Pager page={tasks.data.page} pageSize={tasks.data.pageSize} total={tasks.data.total} onPage={goTo} />
          </>
        ) : null}
      </Card>
    </>
  );
}
