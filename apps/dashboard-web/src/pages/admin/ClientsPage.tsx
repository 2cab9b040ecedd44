import type { ClientListRow, ClientRow, Page } from '@smsq/dashboard-api';
import { useState, type FormEvent } from 'react';
import { Link, useSearchParams } from 'react-router';
import { api } from '../../api/client';
import { buildQuery, parsePage } from '../../api/query';
import { useAction, useApi } from '../../api/useApi';
import { Alert, ErrorAlert } from '../../components/Alert';
import { EmptyState } from '../../components/EmptyState';
import { Pager } from '../../components/Pager';
import { SearchBar, useSearch } from '../../components/SearchBar';
import { Badge, Card, Field, Loading, PageHeader } from '../../components/ui';
import { useSession } from '../../auth/session';
import { formatCredits, formatDateTime } from '../../lib/format';
import { PLANS, planOptionLabel } from './plans';
import { timeZoneChoices } from '../../lib/time-zones';

function CreateClientForm({ onCreated }: { onCreated: (client: ClientRow) => void }) {
  // The zone a client gets at sign-up, so both ways of making a client agree.
  const { session } = useSession();
  const empty = { name: '', plan: 'free', timezone: session.defaultTimeZone, email: '', password: '' };
  const [form, setForm] = useState(empty);
  const [problem, setProblem] = useState<string | null>(null);
  const action = useAction();

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setProblem(null);
    if (form.name.trim() === '') return setProblem('Enter the client’s name.');
    if ((form.email !== '') !== (form.password !== '')) return setProblem('Give both an email and a password to create a sign-in, or neither.');
    if (form.password !== '' && form.password.length < 12) return setProblem('The password needs at least 12 characters.');
    const body: Record<string, string> = { name: form.name.trim(), plan: form.plan, timezone: form.timezone.trim() || 'UTC' };
    if (form.email) {
      body.email = form.email.trim();
      body.password = form.password;
    }
    const created = await action.run(() => api.post<ClientRow>('/admin/clients', body));
    if (created) {
      setForm(empty);
      onCreated(created);
    }
  }

  return (
    <form className="form-grid" onSubmit={(event) => void submit(event)} noValidate>
      {problem ? <Alert tone="error">{problem}</Alert> : null}
      <ErrorAlert error={action.error} />
      <Field label="Name">{(props) => <input {...props} value={form.name} required maxLength={120} onChange={(e) => setForm({ ...form, name: e.target.value })} />}</Field>
      <Field label="Plan">
        {(props) => (
          <select {...props} value={form.plan} onChange={(e) => setForm({ ...form, plan: e.target.value })}>
            {PLANS.map((plan) => (
              <option key={plan.name} value={plan.name}>
                {planOptionLabel(plan)}
              </option>
            ))}
          </select>
        )}
      </Field>
      <Field label="Time zone" hint="IANA name, e.g. Europe/Belgrade. Scheduled times and daily charts use it.">
        {(props) => (
          <>
            <input {...props} list="time-zone-choices" value={form.timezone} onChange={(e) => setForm({ ...form, timezone: e.target.value })} />
            <datalist id="time-zone-choices">
              {timeZoneChoices().map((name) => (
                <option key={name} value={name} />
              ))}
            </datalist>
          </>
        )}
      </Field>
      <Field label="Email" hint="Optional: creates a sign-in for the client.">
        {(props) => <input {...props} type="email" autoComplete="off" value={form.email} onChange={(e) => setForm({ ...form, email: e.target.value })} />}
      </Field>
      <Field label="Password" hint="Optional, with the email: at least 12 characters.">
        {(props) => <input {...props} type="password" autoComplete="new-password" value={form.password} onChange={(e) => setForm({ ...form, password: e.target.value })} />}
      </Field>
      <div className="form-actions">
        <button type="submit" className="btn btn-primary" disabled={action.busy}>
          Create client
        </button>
      </div>
    </form>
  );
}

export function ClientsPage() {
  const [params, setParams] = useSearchParams();
  const search = useSearch();
  const page = parsePage(params.get('page'));
  const [created, setCreated] = useState<ClientRow | null>(null);
  const clients = useApi<Page<ClientListRow>>(`/admin/clients${buildQuery({ search, page })}`);

  return (
    <>
      <PageHeader title="Clients" eyebrow="Admin" subtitle="Every account on the service. Open one to change its plan, grant credits or manage its keys." />
      {created ? (
        <Alert tone="success" title="Client created" onDismiss={() => setCreated(null)}>
          {created.name} (#{created.id}) is ready. <Link to={`/admin/clients/${created.id}`}>Manage {created.name}</Link>
        </Alert>
      ) : null}
      <div className="stack">
        <Card title="Directory">
          <SearchBar id="client-search" placeholder="Search by name or email" button="btn-secondary" />
          <ErrorAlert error={clients.error} />
          {clients.loading && !clients.data ? <Loading /> : null}
          {clients.data && clients.data.items.length === 0 ? (
            <EmptyState title={search ? `No clients match “${search}”` : 'No clients yet'} icon="☺">
              {search ? 'Try part of the name.' : 'Create the first client with the form. Clients can also sign up on their own.'}
            </EmptyState>
          ) : null}
          {clients.data && clients.data.items.length > 0 ? (
            <>
              <div className="table-wrap">
                <table>
                  <caption className="sr-only">Clients</caption>
                  <thead>
                    <tr>
                      <th scope="col">ID</th>
                      <th scope="col">Name</th>
                      <th scope="col">Status</th>
                      <th scope="col">Plan</th>
                      <th scope="col" className="num">
                        Credits
                      </th>
                      <th scope="col">Time zone</th>
                      <th scope="col">Created</th>
                    </tr>
                  </thead>
                  <tbody>
                    {clients.data.items.map((client) => (
                      <tr key={client.id} data-testid={`client-row-${client.id}`}>
                        <td>
                          <code>#{client.id}</code>
                        </td>
                        <td>
                          <Link to={`/admin/clients/${client.id}`}>{client.name}</Link>
                        </td>
                        <td>{client.disabledAt !== null ? <Badge tone="red">disabled</Badge> : <Badge tone="green">active</Badge>}</td>
                        <td>{client.plan ?? <span className="muted">unknown</span>}</td>
                        <td className="num">{client.creditsRemaining === null ? <span className="muted">unknown</span> : formatCredits(client.creditsRemaining)}</td>
                        <td>{client.timezone}</td>
                        <td className="nowrap">{formatDateTime(client.createdAt)}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
              <Pager page={clients.data.page} pageSize={clients.data.pageSize} total={clients.data.total} onPage={(next) => setParams(new URLSearchParams(buildQuery({ search, page: next > 1 ? next : undefined }).slice(1)))} />
            </>
          ) : null}
        </Card>
        <Card title="New client">
          <CreateClientForm
            onCreated={(client) => {
              setCreated(client);
              clients.reload();
            }}
          />
        </Card>
      </div>
    </>
  );
}
