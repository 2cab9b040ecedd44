import type { PhoneState, SimLimits, SimUsage } from '@smsq/dashboard-api';
import { useId, useState, type ChangeEvent, type FormEvent, type ReactNode } from 'react';
import { formatCredits, formatInZone } from '../lib/format';
import { limitsDraftOf, limitsText, parseLimitsInput, partsTodayText, pauseText, recipientsThisMonthText, type LimitsDraft } from '../lib/sim-limits';
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

type LimitsRow = { id: number; name: string } & Pick<SimUsage, 'dailyLimit' | 'perMinute' | 'monthlyRecipients' | 'jitter' | 'sims'>;

/** One field of the limits form, with the sentence that says what it does (read out with it). */
function LimitField({ label, ariaLabel, hint, children }: { label: string; ariaLabel: string; hint: string; children: (props: { 'aria-label': string; 'aria-describedby': string }) => ReactNode }) {
  const hintId = useId();
  return (
    <label>
      <span className="small">{label}</span>
      {children({ 'aria-label': ariaLabel, 'aria-describedby': hintId })}
      <span className="hint" id={hintId}>
        {hint}
      </span>
    </label>
  );
}

/**
 * The SIM limits of a phone or gateway: shown, and set with a small form (empty is no limit).
 * The limits count SMS parts, as carriers do: a long message is several.
 */
export function SimLimitsCell({ row, busy, onSave, noun = 'phone' }: { row: LimitsRow; busy: boolean; onSave: (limits: Required<SimLimits>) => Promise<boolean>; noun?: 'phone' | 'gateway' }) {
  const [editing, setEditing] = useState(false);
  const [draft, setDraft] = useState<LimitsDraft>(() => limitsDraftOf(row));
  const [error, setError] = useState<string | null>(null);
  const label = row.name || `#${row.id}`;
  if (!editing) {
    return (
      <div className="inline-edit">
        <span data-testid="sim-limits" className="limits-summary">
          {limitsText(row)}
        </span>
        <button
          type="button"
          className="btn btn-link btn-sm"
          aria-label={`Set limits of ${label}`}
          onClick={() => {
            setDraft(limitsDraftOf(row));
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
    const parsed = parseLimitsInput(draft);
    if (!parsed.ok) {
      setError(parsed.error);
      return;
    }
    setError(null);
    if (await onSave(parsed.limits)) setEditing(false);
  }
  const field = (name: keyof LimitsDraft) => ({ value: draft[name], onChange: (event: ChangeEvent<HTMLInputElement | HTMLSelectElement>) => setDraft({ ...draft, [name]: event.target.value }) });
  return (
    <form className="limits-form" onSubmit={(event) => void submit(event)} noValidate>
      <LimitField label="SMS parts a day" ariaLabel={`Daily limit of ${label}`} hint="Counted in parts, as carriers count: a long message is several. Empty: no limit; 0 sends nothing.">
        {(props) => <input {...props} inputMode="numeric" {...field('dailyLimit')} placeholder="no limit" size={7} />}
      </LimitField>
      <LimitField label="SMS parts a minute" ariaLabel={`Per-minute pace of ${label}`} hint={`The pace its worker keeps. Empty: the worker’s own.`}>
        {(props) => <input {...props} inputMode="numeric" {...field('perMinute')} placeholder="no limit" size={7} />}
      </LimitField>
      <LimitField label="Recipients a month" ariaLabel={`Monthly recipients cap of ${label}`} hint={`Distinct numbers this ${noun} may text in a calendar month; operators often allow 100–250. Numbers it already texted this month still go through it.`}>
        {(props) => <input {...props} inputMode="numeric" {...field('monthlyRecipients')} placeholder="no cap" size={7} />}
      </LimitField>
      <LimitField label="Jitter, seconds" ariaLabel={`Jitter of ${label}`} hint="A random extra pause of up to this many seconds between sends, so they are not evenly spaced. Empty: none.">
        {(props) => <input {...props} inputMode="numeric" {...field('jitter')} placeholder="none" size={5} />}
      </LimitField>
      <LimitField label="SIMs" ariaLabel={`SIMs of ${label}`} hint="With two, Sticky keeps each recipient on one of them.">
        {(props) => (
          <select {...props} {...field('sims')}>
            <option value="1">1</option>
            <option value="2">2</option>
          </select>
        )}
      </LimitField>
      <div className="form-actions limits-actions">
        <button type="submit" className="btn btn-primary btn-sm" disabled={busy}>
          Save limits
        </button>
        <button type="button" className="btn btn-ghost btn-sm" onClick={() => setEditing(false)}>
          Cancel
        </button>
      </div>
      {error ? (
        <p className="field-error" role="alert" data-testid="limits-error">
          {error}
        </p>
      ) : null}
    </form>
  );
}

/** Parts sent today against the daily limit, and recipients this month against the cap. */
export function SimUsageCells({ row, sentToday }: { row: SimUsage; sentToday?: number }) {
  return (
    <>
      <td className="num">
        <span className="cell-lines">
          <span data-testid="parts-today" className="nowrap">
            {partsTodayText(row)}
          </span>
          {sentToday === undefined ? null : <span className="muted small">{sentToday === 1 ? '1 task sent' : `${formatCredits(sentToday)} tasks sent`}</span>}
        </span>
      </td>
      <td className="num nowrap" data-testid="recipients-this-month">
        {recipientsThisMonthText(row)}
      </td>
    </>
  );
}

/**
 * "Paused until 14:35, the carrier refused for volume" in the owner's zone, and a button that
 * lifts the pause at once; nothing while it is not paused.
 */
export function PauseNotice({ row, timeZone, busy, onResume }: { row: { id: number; name: string } & Pick<SimUsage, 'pausedUntil' | 'pauseReason'>; timeZone: string; busy: boolean; onResume: () => void }) {
  const text = pauseText(row, timeZone);
  if (text === null || row.pausedUntil === null) return null;
  return (
    <span className="cell-lines" data-testid="pause">
      <Badge tone="amber">paused</Badge>
      <span className="small">
        <time dateTime={row.pausedUntil} title={formatInZone(row.pausedUntil, timeZone)}>
          {text}
        </time>
      </span>
      <button type="button" className="btn btn-secondary btn-sm" disabled={busy} aria-label={`Resume ${row.name || `#${row.id}`} now`} onClick={onResume}>
        Resume now
      </button>
    </span>
  );
}
