import type { CreatedApiKey, PhoneRow } from '@smsq/dashboard-api';
import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { api } from '../../api/client';
import { useAction, useApi } from '../../api/useApi';
import { useSession } from '../../auth/session';
import { ErrorAlert } from '../../components/Alert';
import { EmptyState } from '../../components/EmptyState';
import { NewSecret } from '../../components/NewSecret';
import { Badge, Card, Loading, PageHeader } from '../../components/ui';
import { formatCredits, formatDateTime, formatRelative } from '../../lib/format';

function PhoneNameCell({ phone, onSave, busy }: { phone: PhoneRow; onSave: (name: string) => Promise<boolean>; busy: boolean }) {
  const [editing, setEditing] = useState(false);
  const [name, setName] = useState(phone.name);
  if (!editing) {
    return (
      <div className="inline-edit">
        <span className="phone-name">{phone.name || <span className="muted">Unnamed phone</span>}</span>
        <button
          type="button"
          className="btn btn-link btn-sm"
          onClick={() => {
            setName(phone.name);
            setEditing(true);
          }}
          aria-label={`Rename ${phone.name || `phone ${phone.id}`}`}
        >
          Rename
        </button>
      </div>
    );
  }
  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (name.trim() === '') return;
    if (await onSave(name.trim())) setEditing(false);
  }
  return (
    <form className="inline-edit" onSubmit={(event) => void submit(event)}>
      <label className="sr-only" htmlFor={`phone-name-${phone.id}`}>
        Phone name
      </label>
      <input id={`phone-name-${phone.id}`} value={name} onChange={(e) => setName(e.target.value)} maxLength={80} required autoFocus onKeyDown={(e) => e.key === 'Escape' && setEditing(false)} />
      <button type="submit" className="btn btn-primary btn-sm" disabled={busy || name.trim() === ''}>
        Save
      </button>
      <button type="button" className="btn btn-ghost btn-sm" onClick={() => setEditing(false)}>
        Cancel
      </button>
    </form>
  );
}

export function PhonesPage() {
  const { session } = useSession();
  const profileA = session.profile === 'A';
  const phones = useApi<PhoneRow[]>(profileA ? '/phones' : null);
  const action = useAction();
  const [pairing, setPairing] = useState<CreatedApiKey | null>(null);

  async function createPairingKey() {
    const answer = await action.run(() => api.post<CreatedApiKey>('/keys'));
    if (answer) setPairing(answer);
  }

  async function update(phone: PhoneRow, patch: { name?: string; active?: boolean }): Promise<boolean> {
    const ok = await action.attempt(() => api.patch<PhoneRow>(`/phones/${phone.id}`, patch));
    phones.reload();
    return ok;
  }

  if (!profileA) {
    return (
      <>
        <PageHeader title="Phones" />
        <div className="card">
          <EmptyState title="Phones are not used on this service" icon="☎">
            Messages are delivered through the shared gateway pool, so there is nothing to pair. Create an <Link to="/keys">API key</Link> to start sending.
          </EmptyState>
        </div>
      </>
    );
  }

  return (
    <>
      <PageHeader title="Phones" subtitle="Your own Android phones deliver your messages. Keep at least one active, online and charging." />
      <ErrorAlert error={action.error} onDismiss={() => action.setError(undefined)} />
      <Card title="Pair a phone">
        <ol className="steps">
          <li>Install the smsq gateway app on an Android phone with a SIM that can send SMS.</li>
          <li>Create a pairing key below and scan its QR code in the app (it also contains your API base URL).</li>
          <li>Start the gateway in the app. The phone appears in the list once it checks in.</li>
        </ol>
        {pairing ? (
          <NewSecret
            title="Pairing key"
            secret={pairing.apiKey}
            testId="new-api-key"
            qrPayload={pairing.pairingPayload ?? JSON.stringify({ base_url: session.apiBaseUrl, api_key: pairing.apiKey })}
            onDone={() => setPairing(null)}
            note="This is a new API key; it will not be shown again. It is listed under API keys, where you can revoke it."
          />
        ) : (
          <button type="button" className="btn btn-primary" onClick={() => void createPairingKey()} disabled={action.busy}>
            Create a pairing key
          </button>
        )}
      </Card>
      <Card title="Connected devices">
        <ErrorAlert error={phones.error} />
        {phones.loading && !phones.data ? <Loading /> : null}
        {phones.data && phones.data.length === 0 ? (
          <EmptyState title="No phones paired yet" icon="☎">
            Create a pairing key above and scan it with the gateway app. Until a phone is active, new tasks are refused with 400.
          </EmptyState>
        ) : null}
        {phones.data && phones.data.length > 0 ? (
          <div className="table-wrap">
            <table>
              <caption className="sr-only">Phones</caption>
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">ID</th>
                  <th scope="col">Status</th>
                  <th scope="col">Last seen</th>
                  <th scope="col" className="num">
                    Sent today
                  </th>
                  <th scope="col">
                    <span className="sr-only">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {phones.data.map((phone) => (
                  <tr key={phone.id} data-testid={`phone-row-${phone.id}`}>
                    <td>
                      <PhoneNameCell phone={phone} busy={action.busy} onSave={(name) => update(phone, { name })} />
                    </td>
                    <td>
                      <code>#{phone.id}</code>
                    </td>
                    <td>{phone.active ? <Badge tone="green">active</Badge> : <Badge tone="gray">disabled</Badge>}</td>
                    <td title={formatDateTime(phone.lastSeenAt)}>{formatRelative(phone.lastSeenAt)}</td>
                    <td className="num">{formatCredits(phone.sentToday)}</td>
                    <td className="actions-cell">
                      <button type="button" className={`btn btn-sm ${phone.active ? 'btn-danger-outline' : 'btn-secondary'}`} disabled={action.busy} onClick={() => void update(phone, { active: !phone.active })}>
                        {phone.active ? 'Disable' : 'Enable'}
                      </button>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        ) : null}
      </Card>
    </>
  );
}
