import type { ApiKeyRow, ClientDetail, CreatedApiKey } from '@smsq/dashboard-api';
import { useEffect, useState, type FormEvent } from 'react';
import { Link, useParams } from 'react-router';
import { api } from '../../api/client';
import { useAction, useApi } from '../../api/useApi';
import { useSession } from '../../auth/session';
import { ApiKeyTable } from '../../components/ApiKeyTable';
import { Alert, ErrorAlert } from '../../components/Alert';
import { DailyChart } from '../../components/Chart';
import { NewSecret } from '../../components/NewSecret';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { ZonedTime } from '../../components/Time';
import { Badge, Card, Field, Loading, PageHeader } from '../../components/ui';
import { formatCredits } from '../../lib/format';
import { CreditStats } from '../overview/CreditStats';
import { PLANS, planOptionLabel } from './plans';

function PlanForm({ detail, onSaved }: { detail: ClientDetail; onSaved: (next: ClientDetail) => void }) {
  const [plan, setPlan] = useState(detail.plan);
  const [daily, setDaily] = useState(String(detail.dailyAllowance));
  const [phones, setPhones] = useState(String(detail.phoneLimit));
  const [saved, setSaved] = useState(false);
  const action = useAction();
  useEffect(() => {
    setPlan(detail.plan);
    setDaily(String(detail.dailyAllowance));
    setPhones(String(detail.phoneLimit));
  }, [detail.plan, detail.dailyAllowance, detail.phoneLimit]);
  const enterprise = plan === 'enterprise';

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setSaved(false);
    const body: { plan: string; daily?: number; phones?: number } = { plan };
    if (enterprise) {
      body.daily = Number(daily);
      body.phones = Number(phones);
    }
    const next = await action.run(() => api.put<ClientDetail>(`/admin/clients/${detail.client.id}/plan`, body));
    if (next) {
      setSaved(true);
      onSaved(next);
    }
  }

  return (
    <form className="form-stack" onSubmit={(event) => void submit(event)}>
      <ErrorAlert error={action.error} />
      {saved ? <Alert tone="success">Plan saved.</Alert> : null}
      <Field label="Plan">
        {(props) => (
          <select {...props} value={plan} onChange={(e) => setPlan(e.target.value)}>
            {PLANS.map((p) => (
              <option key={p.name} value={p.name}>
                {planOptionLabel(p)}
              </option>
            ))}
            {PLANS.some((p) => p.name === plan) ? null : <option value={plan}>{plan}</option>}
          </select>
        )}
      </Field>
      {enterprise ? (
        <div className="form-row">
          <Field label="Daily credits" hint="Enterprise only.">
            {(props) => <input {...props} type="number" min={1} step={1} required value={daily} onChange={(e) => setDaily(e.target.value)} />}
          </Field>
          <Field label="Phone limit" hint="Enterprise only.">
            {(props) => <input {...props} type="number" min={1} step={1} required value={phones} onChange={(e) => setPhones(e.target.value)} />}
          </Field>
        </div>
      ) : null}
      <div>
        <button type="submit" className="btn btn-primary" disabled={action.busy}>
          Save plan
        </button>
      </div>
    </form>
  );
}

function GrantCreditsForm({ clientId, onGranted }: { clientId: number; onGranted: (next: ClientDetail) => void }) {
  const [amount, setAmount] = useState('');
  const [granted, setGranted] = useState<number | null>(null);
  const action = useAction();
  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setGranted(null);
    const value = Number(amount);
    if (!Number.isInteger(value) || value <= 0) return;
    const next = await action.run(() => api.post<ClientDetail>(`/admin/clients/${clientId}/credits`, { amount: value }));
    if (next) {
      setGranted(value);
      setAmount('');
      onGranted(next);
    }
  }
  const invalid = amount !== '' && !(Number.isInteger(Number(amount)) && Number(amount) > 0);
  return (
    <form className="form-stack" onSubmit={(event) => void submit(event)}>
      <ErrorAlert error={action.error} />
      {granted !== null ? <Alert tone="success">{formatCredits(granted)} bonus credits granted.</Alert> : null}
      <Field label="Amount" hint={invalid ? 'Enter a whole number above 0.' : 'Bonus credits never expire and are used after the daily credits.'}>
        {(props) => <input {...props} type="number" min={1} step={1} required inputMode="numeric" value={amount} aria-invalid={invalid} onChange={(e) => setAmount(e.target.value)} />}
      </Field>
      <div>
        <button type="submit" className="btn btn-primary" disabled={action.busy || amount === '' || invalid}>
          Grant credits
        </button>
      </div>
    </form>
  );
}

/** Disabling refuses the client's API keys at once (401) and keeps everything else; enabling restores them. */
function ClientAccess({ detail, onChanged }: { detail: ClientDetail; onChanged: (next: ClientDetail) => void }) {
  const [confirming, setConfirming] = useState(false);
  const action = useAction();
  const disabled = detail.client.disabledAt !== null;

  async function setDisabled(next: boolean) {
    const answer = await action.run(() => api.put<ClientDetail>(`/admin/clients/${detail.client.id}/disabled`, { disabled: next }));
    setConfirming(false);
    if (answer) onChanged(answer);
  }

  return (
    <Card
      title="Access"
      actions={
        disabled ? (
          <button type="button" className="btn btn-primary btn-sm" disabled={action.busy} onClick={() => void setDisabled(false)}>
            Enable client
          </button>
        ) : (
          <button type="button" className="btn btn-danger-outline btn-sm" onClick={() => setConfirming(true)}>
            Disable client
          </button>
        )
      }
    >
      <ErrorAlert error={action.error} />
      <p data-testid="client-access">
        {disabled ? (
          <>
            <Badge tone="red">disabled</Badge> since <ZonedTime iso={detail.client.disabledAt} timeZone={detail.client.timezone} />: its API keys answer 401. Its tasks, credits and phones are kept.
          </>
        ) : (
          <>
            <Badge tone="green">active</Badge> Its API keys work.
          </>
        )}
      </p>
      <ConfirmDialog open={confirming} title={`Disable ${detail.client.name}?`} confirmLabel="Disable client" busy={action.busy} onCancel={() => setConfirming(false)} onConfirm={() => void setDisabled(true)}>
        <p>Its API keys answer 401 at once, on every gateway. Nothing is deleted: tasks already queued stay queued, and enabling the client makes its keys work again.</p>
      </ConfirmDialog>
    </Card>
  );
}

export function ClientDetailPage() {
  const { id } = useParams();
  const { session } = useSession();
  const valid = id !== undefined && /^\d+$/.test(id);
  const loaded = useApi<ClientDetail>(valid ? `/admin/clients/${id}` : null);
  const [detail, setDetail] = useState<ClientDetail | undefined>(undefined);
  const [created, setCreated] = useState<CreatedApiKey | null>(null);
  const keyAction = useAction();
  useEffect(() => setDetail(loaded.data), [loaded.data]);

  async function createKey() {
    const answer = await keyAction.run(() => api.post<CreatedApiKey>(`/admin/clients/${id}/keys`));
    if (answer) {
      setCreated(answer);
      loaded.reload();
    }
  }
  async function revoke(key: ApiKeyRow): Promise<boolean> {
    const ok = await keyAction.attempt(() => api.delete(`/admin/keys/${key.id}`));
    loaded.reload();
    return ok;
  }

  const d = detail;
  return (
    <>
      <PageHeader title={d ? d.client.name : valid ? `Client #${id}` : 'Client'} eyebrow={<Link to="/admin/clients">← Clients</Link>} subtitle={d ? `Client #${d.client.id} · ${d.client.timezone}` : undefined} />
      {!valid ? <Alert title="Not found">There is no client with this number.</Alert> : null}
      <ErrorAlert error={loaded.error} />
      {loaded.loading && !d ? <Loading /> : null}
      {d ? (
        <>
          <CreditStats plan={d.plan} dailyAllowance={d.dailyAllowance} dailyRemaining={d.dailyRemaining} bonusRemaining={d.bonusRemaining} creditsRemaining={d.creditsRemaining} periodEndsAt={d.periodEndsAt} phoneLimit={d.phoneLimit} timeZone={d.client.timezone} />
          <div className="two-col">
            <Card title="Plan">
              <PlanForm detail={d} onSaved={setDetail} />
            </Card>
            <Card title="Bonus credits">
              <GrantCreditsForm clientId={d.client.id} onGranted={setDetail} />
            </Card>
          </div>
          <Card
            title="API keys"
            actions={
              <button type="button" className="btn btn-primary btn-sm" onClick={() => void createKey()} disabled={keyAction.busy}>
                Create API key
              </button>
            }
          >
            <ErrorAlert error={keyAction.error} onDismiss={() => keyAction.setError(undefined)} />
            {created ? <NewSecret title={`New API key for ${d.client.name}`} secret={created.apiKey} testId="new-api-key" qrPayload={session.profile === 'A' ? created.pairingPayload : null} onDone={() => setCreated(null)} /> : null}
            <ApiKeyTable keys={d.keys} busy={keyAction.busy} onRevoke={revoke} emptyText="This client has no keys. Create one and pass it on securely." />
          </Card>
          <ClientAccess detail={d} onChanged={setDetail} />
          <Card title="Messages, last 30 days">
            <DailyChart days={d.days} title={`Messages per day for ${d.client.name}, last 30 days`} />
          </Card>
        </>
      ) : null}
    </>
  );
}
