import type { CreatedApiKey, PhoneHealth, PhoneRow, SendingRules, SimLimits } from '@smsq/dashboard-api';
import { useEffect, useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { api } from '../../api/client';
import { useAction, useApi } from '../../api/useApi';
import { useSession } from '../../auth/session';
import { ErrorAlert } from '../../components/Alert';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { EmptyState } from '../../components/EmptyState';
import { NewSecret } from '../../components/NewSecret';
import { PHONES_GUIDE, UnreachableApiWarning } from '../../components/PairingGuide';
import { PhoneNumberCell } from '../../components/PhoneNumberCell';
import { ConnectionBadge, PauseNotice, SilentPhonesBanner, SimLimitsCell, SimUsageCells } from '../../components/PhoneLiveness';
import { SendWindowState } from '../../components/SendWindowState';
import { RelativeTime, ZonedTime } from '../../components/Time';
import { Badge, Card, Loading, PageHeader } from '../../components/ui';
import { routingModeChoices } from '../../lib/sending-rules';

/** How often the list is read again, so a phone that starts polling shows up as connected. */
const REFRESH_MS = 15_000;
const PAIRING_CARD_ID = 'pair-a-phone';

/** Its last contact of any kind, in the client's zone and relative; a phone that never polled is told how to start. */
function LastContact({ phone }: { phone: PhoneRow }) {
  if (phone.lastSeenAt === null) {
    return (
      <span className="muted" data-testid="not-connected">
        Not connected yet: start the worker (see <a href={`#${PAIRING_CARD_ID}`}>pairing</a>)
      </span>
    );
  }
  const lastContact = phone.lastContactAt ?? phone.lastSeenAt;
  return (
    <span className="cell-lines">
      <RelativeTime iso={lastContact} timeZone={phone.timeZone} />
      <span className="small">
        <ZonedTime iso={lastContact} timeZone={phone.timeZone} />
      </span>
    </span>
  );
}

function batteryText(health: PhoneHealth): string | null {
  const charging = health.charging === null ? null : health.charging ? 'charging' : 'not charging';
  if (health.batteryPercent === null) return charging === null ? null : `Battery ${charging}`;
  return `Battery ${health.batteryPercent}%${charging === null ? '' : `, ${charging}`}`;
}

/** Battery and connection as the phone's worker last reported them, and when. */
function Health({ phone }: { phone: PhoneRow }) {
  const { health } = phone;
  if (health === null) return <span className="muted">Not reported</span>;
  const battery = batteryText(health);
  return (
    <span className="cell-lines">
      {battery !== null ? <span>{battery}</span> : null}
      {health.connection !== null ? <span>Connection: {health.connection}</span> : null}
      <span className="muted small">
        reported <RelativeTime iso={health.reportedAt} timeZone={phone.timeZone} />
      </span>
    </span>
  );
}

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

/** The routing mode the client's phones are used in, what it does, and the send windows' state now. */
function RoutingInUse({ rules }: { rules: SendingRules | undefined }) {
  if (!rules) return null;
  const choice = routingModeChoices('A').find((candidate) => candidate.mode === rules.routingMode);
  return (
    <div className="form-stack" data-testid="routing-in-use">
      <p>
        Routing: <strong data-testid="routing-mode">{choice?.label ?? rules.routingMode}</strong>
        {rules.routingMode === 'sticky' ? ` (a recipient keeps its phone ${rules.stickyDays} ${rules.stickyDays === 1 ? 'day' : 'days'} after its last message)` : ''}. {choice?.description}{' '}
        <Link to="/settings">Change it in Settings</Link>.
      </p>
      <SendWindowState rules={rules} />
    </div>
  );
}

export function PhonesPage() {
  const { session } = useSession();
  const profileA = session.profile === 'A';
  const phones = useApi<PhoneRow[]>(profileA ? '/phones' : null);
  const rules = useApi<SendingRules>(profileA ? '/settings/sending' : null);
  const action = useAction();
  const [pairing, setPairing] = useState<CreatedApiKey | null>(null);
  const [disabling, setDisabling] = useState<PhoneRow | null>(null);
  const { reload } = phones;
  const reloadRules = rules.reload;

  useEffect(() => {
    if (!profileA) return;
    const timer = window.setInterval(() => {
      reload();
      reloadRules();
    }, REFRESH_MS);
    return () => window.clearInterval(timer);
  }, [profileA, reload, reloadRules]);

  async function createPairingKey() {
    const answer = await action.run(() => api.post<CreatedApiKey>('/keys'));
    if (answer) setPairing(answer);
  }

  async function update(phone: PhoneRow, patch: { name?: string; active?: boolean; number?: string | null } & SimLimits): Promise<boolean> {
    const ok = await action.attempt(() => api.patch<PhoneRow>(`/phones/${phone.id}`, patch));
    phones.reload();
    return ok;
  }

  async function resume(phone: PhoneRow): Promise<void> {
    await action.attempt(() => api.post<PhoneRow>(`/phones/${phone.id}/resume`));
    phones.reload();
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
      {phones.data ? <SilentPhonesBanner phones={phones.data.filter((phone) => phone.active && phone.state === 'silent')} timeZone={phones.data[0]?.timeZone ?? session.defaultTimeZone} /> : null}
      <Card title="Pair a phone" titleId={PAIRING_CARD_ID}>
        <p className="muted">
          A phone is paired with an API key: the smsq worker that drives it reads the key’s QR code (or its text), registers the phone and keeps the phone’s own worker token. The phone sends with{' '}
          <strong>SMS Gateway for Android (SMSGate)</strong> or with <strong>Termux + Termux:API</strong>; the steps for both come with the key. The full guide is {PHONES_GUIDE}.
        </p>
        {pairing ? (
          <NewSecret
            title="New API key for pairing"
            secret={pairing.apiKey}
            testId="new-api-key"
            qrPayload={pairing.pairingPayload ?? JSON.stringify({ base_url: session.apiBaseUrl, api_key: pairing.apiKey })}
            onDone={() => setPairing(null)}
            note="It is an ordinary API key and will not be shown again; it is listed under API keys, where you can revoke it."
          />
        ) : (
          <>
            <UnreachableApiWarning />
            <div>
              <button type="button" className="btn btn-primary" onClick={() => void createPairingKey()} disabled={action.busy}>
                Create an API key to pair a phone
              </button>
            </div>
          </>
        )}
      </Card>
      <Card title="Connected devices">
        <ErrorAlert error={phones.error} />
        <RoutingInUse rules={rules.data} />
        {phones.loading && !phones.data ? <Loading /> : null}
        {phones.data && phones.data.length === 0 ? (
          <EmptyState title="No phones paired yet" icon="☎">
            Create an API key to pair a phone above and follow its steps. Until a phone is active, new tasks are refused with 400.
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
                  <th scope="col">Number</th>
                  <th scope="col">Status</th>
                  <th scope="col">Connection</th>
                  <th scope="col">Last contact</th>
                  <th scope="col">Battery and connection</th>
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
                {phones.data.map((phone) => (
                  <tr key={phone.id} data-testid={`phone-row-${phone.id}`}>
                    <td>
                      <PhoneNameCell phone={phone} busy={action.busy} onSave={(name) => update(phone, { name })} />
                    </td>
                    <td>
                      <code>#{phone.id}</code>
                    </td>
                    <td>
                      <PhoneNumberCell row={phone} label={phone.name || `phone ${phone.id}`} busy={action.busy} onSave={(number) => update(phone, { number })} />
                    </td>
                    <td data-testid="status">
                      <span className="cell-lines">
                        <span>{phone.active ? <Badge tone="green">active</Badge> : <Badge tone="gray">disabled</Badge>}</span>
                        <PauseNotice row={phone} timeZone={phone.timeZone} busy={action.busy} onResume={() => void resume(phone)} />
                      </span>
                    </td>
                    <td data-testid="connection">
                      <ConnectionBadge state={phone.state} />
                    </td>
                    <td data-testid="last-contact">
                      <LastContact phone={phone} />
                    </td>
                    <td>
                      <Health phone={phone} />
                    </td>
                    <SimUsageCells row={phone} sentToday={phone.sentToday} />
                    <td>
                      <SimLimitsCell row={phone} busy={action.busy} onSave={(limits) => update(phone, limits)} />
                    </td>
                    <td className="actions-cell">
                      <button type="button" className={`btn btn-sm ${phone.active ? 'btn-danger-outline' : 'btn-secondary'}`} disabled={action.busy} onClick={() => (phone.active ? setDisabling(phone) : void update(phone, { active: true }))}>
                        {phone.active ? 'Disable' : 'Enable'}
                      </button>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        ) : null}
        {phones.data && phones.data.length > 0 ? (
          <p className="muted small">
            A phone’s number is its SIM’s, with the country code: a message an SMPP client sends from that number goes through that phone (<Link to="/settings#smpp">SMPP</Link>).
            Limits count SMS parts, as carriers do: a message longer than one SMS is several parts. Today and this month are counted in your time zone. A phone the carrier refused for volume is paused for 1, then 5, 15 and
            60 minutes on repeats within a day; its waiting messages go through your other phones meanwhile.
          </p>
        ) : null}
      </Card>
      <ConfirmDialog
        open={disabling !== null}
        title={`Disable ${disabling?.name ?? 'this phone'}?`}
        confirmLabel="Disable phone"
        busy={action.busy}
        onCancel={() => setDisabling(null)}
        onConfirm={() => {
          if (disabling) void update(disabling, { active: false }).then(() => setDisabling(null));
        }}
      >
        <p>It stops getting messages: its app is refused until you enable it again. The messages already queued for it move to your other online phones, except those you sent to this phone by its id, which wait. New messages go to your other active phones; with none, they are refused.</p>
      </ConfirmDialog>
    </>
  );
}
