import type { GatewayRow, SimLimits } from '@smsq/dashboard-api';
import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { api } from '../../api/client';
import { useAction, useApi } from '../../api/useApi';
import { useSession } from '../../auth/session';
import { Alert, ErrorAlert } from '../../components/Alert';
import { EmptyState } from '../../components/EmptyState';
import { ConnectionBadge, PauseNotice, SilentPhonesBanner, SimLimitsCell, SimUsageCells } from '../../components/PhoneLiveness';
import { PhoneNumberCell } from '../../components/PhoneNumberCell';
import { ZonedTime } from '../../components/Time';
import { Badge, Card, Field, Loading, PageHeader } from '../../components/ui';
import { formatInZone, formatRelative } from '../../lib/format';

function CreateGatewayForm({ onCreated }: { onCreated: (gateway: GatewayRow) => void }) {
  const [form, setForm] = useState({ name: '', url: '', clientId: '' });
  const [problem, setProblem] = useState<string | null>(null);
  const action = useAction();
  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setProblem(null);
    if (form.name.trim() === '') return setProblem('Enter a name for the gateway.');
    try {
      const url = new URL(form.url.trim());
      if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error('protocol');
    } catch {
      return setProblem('Enter the gateway’s full URL, starting with http:// or https://.');
    }
    if (form.clientId !== '' && !/^\d+$/.test(form.clientId.trim())) return setProblem('The client ID is a number (or leave it empty for the shared pool).');
    const body: { name: string; url: string; clientId?: number } = { name: form.name.trim(), url: form.url.trim() };
    if (form.clientId.trim() !== '') body.clientId = Number(form.clientId);
    const created = await action.run(() => api.post<GatewayRow>('/admin/gateways', body));
    if (created) {
      setForm({ name: '', url: '', clientId: '' });
      onCreated(created);
    }
  }
  return (
    <form className="form-grid" onSubmit={(event) => void submit(event)} noValidate>
      {problem ? <Alert tone="error">{problem}</Alert> : null}
      <ErrorAlert error={action.error} />
      <Field label="Name">{(props) => <input {...props} value={form.name} required onChange={(e) => setForm({ ...form, name: e.target.value })} />}</Field>
      <Field label="URL" hint="Where the worker sends messages for this gateway.">
        {(props) => <input {...props} type="url" inputMode="url" placeholder="https://gateway.example.com/send" value={form.url} required onChange={(e) => setForm({ ...form, url: e.target.value })} />}
      </Field>
      <Field label="Client ID" hint="Optional: reserve the gateway for this client’s VIP pool. Empty means the shared pool.">
        {(props) => <input {...props} inputMode="numeric" value={form.clientId} onChange={(e) => setForm({ ...form, clientId: e.target.value })} />}
      </Field>
      <div className="form-actions">
        <button type="submit" className="btn btn-primary" disabled={action.busy}>
          Create gateway
        </button>
      </div>
    </form>
  );
}

export function GatewaysPage() {
  const { session } = useSession();
  const profileB = session.profile === 'B';
  const gateways = useApi<GatewayRow[]>(profileB ? '/admin/gateways' : null);
  const action = useAction();
  const [created, setCreated] = useState<GatewayRow | null>(null);

  async function toggle(gateway: GatewayRow) {
    await action.attempt(() => api.patch<GatewayRow>(`/admin/gateways/${gateway.id}`, { active: !gateway.active }));
    gateways.reload();
  }

  async function resume(gateway: GatewayRow): Promise<void> {
    await action.attempt(() => api.post<GatewayRow>(`/admin/gateways/${gateway.id}/resume`));
    gateways.reload();
  }

  async function change(gateway: GatewayRow, limits: Required<SimLimits> | { number: string | null }): Promise<boolean> {
    const ok = await action.attempt(() => api.patch<GatewayRow>(`/admin/gateways/${gateway.id}`, limits));
    gateways.reload();
    return ok;
  }

  if (!profileB) {
    return (
      <>
        <PageHeader title="Gateways" eyebrow="Admin" />
        <div className="card">
          <EmptyState title="Gateways are not used on this service" icon="⇄">
            This service runs the own-phone model (Profile A): each client pairs its own Android phones. Worker tokens are under <Link to="/admin/worker-tokens">Worker tokens</Link>.
          </EmptyState>
        </div>
      </>
    );
  }

  return (
    <>
      <PageHeader title="Gateways" eyebrow="Admin" subtitle="The SMS gateways the workers deliver through: a client’s VIP pool first (least recently used, or as the client’s routing mode spreads or keeps recipients), otherwise the shared pool." />
      {created ? (
        <Alert tone="success" onDismiss={() => setCreated(null)}>
          Gateway “{created.name}” was added{created.clientId !== null ? ` to the VIP pool of client #${created.clientId}` : ' to the shared pool'}.
        </Alert>
      ) : null}
      <ErrorAlert error={action.error} onDismiss={() => action.setError(undefined)} />
      {gateways.data ? <SilentPhonesBanner noun="gateway" phones={gateways.data.filter((gateway) => gateway.active && gateway.state === 'silent')} timeZone={session.defaultTimeZone} /> : null}
      <div className="two-col">
        <Card title="Pool">
          <ErrorAlert error={gateways.error} />
          {gateways.loading && !gateways.data ? <Loading /> : null}
          {gateways.data && gateways.data.length === 0 ? (
            <EmptyState title="No gateways yet" icon="⇄">
              Without an active gateway, workers answer 503 and nothing is delivered. Add the first one with the form.
            </EmptyState>
          ) : null}
          {gateways.data && gateways.data.length > 0 ? (
            <div className="table-wrap">
              <table>
                <caption className="sr-only">Gateways</caption>
                <thead>
                  <tr>
                    <th scope="col">Name</th>
                    <th scope="col">Number</th>
                    <th scope="col">Pool</th>
                    <th scope="col">Status</th>
                    <th scope="col">Connection</th>
                    <th scope="col">Last used</th>
                    <th scope="col" className="num">
                      Today
                    </th>
                    <th scope="col" className="num">
                      This month
                    </th>
                    <th scope="col">SIM limits</th>
                    <th scope="col">
                      <span className="sr-only">Actions</span>
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {gateways.data.map((gateway) => (
                    <tr key={gateway.id} data-testid={`gateway-row-${gateway.id}`}>
                      <td>
                        <strong>{gateway.name}</strong>
                        <div className="muted small break">{gateway.url ?? 'No URL'}</div>
                      </td>
                      <td>
                        <PhoneNumberCell row={gateway} label={gateway.name || `gateway ${gateway.id}`} busy={action.busy} onSave={(number) => change(gateway, { number })} />
                      </td>
                      <td>{gateway.clientId !== null ? <Link to={`/admin/clients/${gateway.clientId}`}>VIP · client #{gateway.clientId}</Link> : 'Shared'}</td>
                      <td data-testid="status">
                        <span className="cell-lines">
                          <span>{gateway.active ? <Badge tone="green">active</Badge> : <Badge tone="gray">disabled</Badge>}</span>
                          <PauseNotice row={gateway} timeZone={gateway.timeZone} busy={action.busy} onResume={() => void resume(gateway)} />
                        </span>
                      </td>
                      <td data-testid="connection">
                        <span className="cell-lines">
                          <ConnectionBadge state={gateway.state} />
                          <span className="small" data-testid="last-contact">
                            last contact <ZonedTime iso={gateway.lastContactAt} timeZone={gateway.timeZone} />
                          </span>
                        </span>
                      </td>
                      <td className="nowrap" title={`Last used ${formatInZone(gateway.lastAssignedAt, gateway.timeZone, 'never')}; last seen ${formatInZone(gateway.lastSeenAt, gateway.timeZone, 'never')}`}>
                        {formatRelative(gateway.lastAssignedAt)}
                      </td>
                      <SimUsageCells row={gateway} />
                      <td>
                        <SimLimitsCell row={gateway} noun="gateway" busy={action.busy} onSave={(limits) => change(gateway, limits)} />
                      </td>
                      <td className="actions-cell">
                        <button type="button" className={`btn btn-sm ${gateway.active ? 'btn-danger-outline' : 'btn-secondary'}`} disabled={action.busy} onClick={() => void toggle(gateway)}>
                          {gateway.active ? 'Disable' : 'Enable'}
                        </button>
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          ) : null}
          {gateways.data && gateways.data.length > 0 ? (
            <p className="muted small">
              Limits count SMS parts, as carriers do: a message longer than one SMS is several parts. A gateway whose carrier refused for volume is paused for 1, then 5, 15 and 60 minutes on repeats within a day;
              its waiting messages go through the others meanwhile.
            </p>
          ) : null}
        </Card>
        <Card title="New gateway">
          <CreateGatewayForm
            onCreated={(gateway) => {
              setCreated(gateway);
              gateways.reload();
            }}
          />
        </Card>
      </div>
    </>
  );
}
