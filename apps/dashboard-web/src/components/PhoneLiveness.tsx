import type { PhoneState, SimLimits } from '@smsq/dashboard-api';
import { useState, type FormEvent } from 'react';
import { limitsText, parseLimitsInput } from '../lib/sim-limits';
import { Alert } from './Alert';
import { ZonedTime } from './Time';
import { Badge } from './ui';

/** Online or silent for an enabled phone; a disabled one's Status column already says so. */
export function ConnectionBadge({ state }: { state: PhoneState }) {
  if (state === 'online') return <Badge tone="green">online</Badge>;
  if (state === 'silent') return <Badge tone="amber">silent</Badge>;
  return <span className="muted">–</span>;
}

export interface SilentPhoneLine {
  id: number;
  name: string;
  lastContactAt: string;
  waitingTasks: number;
  /** The zone its last contact is shown in, when not the banner's. */
  timeZone?: string;
}

/** Names each enabled phone that has gone silent and the tasks waiting for it; nothing when none has. */
export function SilentPhonesBanner({ phones, timeZone, noun = 'phone' }: { phones: SilentPhoneLine[]; timeZone: string; noun?: 'phone' | 'gateway' }) {
  if (phones.length === 0) return null;
  const title = phones.length === 1 ? `1 ${noun} is silent` : `${phones.length} ${noun}s are silent`;
  return (
    <div data-testid="silent-phones-banner">
      <Alert tone="warning" title={title}>
        <ul className="plain-list">
          {phones.map((phone) => (
            <li key={phone.id} data-testid={`silent-phone-${phone.id}`}>
              <strong>{phone.name || `${noun} ${phone.id}`}</strong> (#{phone.id}): no contact since <ZonedTime iso={phone.lastContactAt} timeZone={phone.timeZone ?? timeZone} />;{' '}
              {phone.waitingTasks === 1 ? '1 task waits' : `${phone.waitingTasks} tasks wait`} for it.
            </li>
          ))}
        </ul>
        <p className="small">
          Its worker, app or network is down. Tasks you did not pin to it move to another online {noun}; pinned ones wait for it.
        </p>
      </Alert>
    </div>
  );
}

/** The SIM limits of a phone or gateway: shown, and set with a small form (empty is no limit). */
export function SimLimitsCell({ row, busy, onSave }: { row: { id: number; name: string; dailyLimit: number | null; perMinute: number | null }; busy: boolean; onSave: (limits: Required<SimLimits>) => Promise<boolean> }) {
  const [editing, setEditing] = useState(false);
  const [daily, setDaily] = useState('');
  const [perMinute, setPerMinute] = useState('');
  const [error, setError] = useState<string | null>(null);
  const label = row.name || `#${row.id}`;
  if (!editing) {
    return (
      <div className="inline-edit">
        <span data-testid="sim-limits">{limitsText(row)}</span>
        <button
          type="button"
          className="btn btn-link btn-sm"
          aria-label={`Set limits of ${label}`}
          onClick={() => {
            setDaily(row.dailyLimit === null ? '' : String(row.dailyLimit));
            setPerMinute(row.perMinute === null ? '' : String(row.perMinute));
            setError(null);
            setEditing(true);
          }}
        >
          Set limits
        </button>
      </div>
    );
  }
  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const parsed = parseLimitsInput(daily, perMinute);
    if (!parsed.ok) {
      setError(parsed.error);
      return;
    }
    setError(null);
    if (await onSave(parsed.limits)) setEditing(false);
  }
  return (
    <form className="limits-form" onSubmit={(event) => void submit(event)} noValidate>
      <label>
        <span className="small">SMS a day</span>
        <input aria-label={`Daily limit of ${label}`} inputMode="numeric" value={daily} onChange={(event) => setDaily(event.target.value)} placeholder="no limit" size={7} />
      </label>
      <label>
        <span className="small">SMS a minute</span>
        <input aria-label={`Per-minute pace of ${label}`} inputMode="numeric" value={perMinute} onChange={(event) => setPerMinute(event.target.value)} placeholder="no limit" size={7} />
      </label>
      <button type="submit" className="btn btn-primary btn-sm" disabled={busy}>
        Save limits
      </button>
      <button type="button" className="btn btn-ghost btn-sm" onClick={() => setEditing(false)}>
        Cancel
      </button>
      {error ? (
        <p className="field-error" role="alert" data-testid="limits-error">
          {error}
        </p>
      ) : null}
    </form>
  );
}

