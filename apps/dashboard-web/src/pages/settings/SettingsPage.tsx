import { DEFAULT_STICKY_DAYS, MAX_SEND_WINDOWS, MAX_STICKY_DAYS, WEEKDAYS, type ClientSettings, type RoutingMode, type SendingRules, type SendWindow, type SessionAnswer } from '@smsq/dashboard-api';
import { useEffect, useId, useState, type FormEvent } from 'react';
import { api } from '../../api/client';
import { useAction, useApi } from '../../api/useApi';
import { useSession } from '../../auth/session';
import { Alert, ErrorAlert } from '../../components/Alert';
import { SendWindowState } from '../../components/SendWindowState';
import { Card, Field, Loading, PageHeader } from '../../components/ui';
import { DAY_NAMES, newSendWindow, parseSendingRules, routingModeChoices } from '../../lib/sending-rules';
import { timeZoneChoices } from '../../lib/time-zones';
import { SmppSetting } from './SmppSetting';

function ChangePassword() {
  const [draft, setDraft] = useState({ currentPassword: '', newPassword: '', repeated: '' });
  const [changed, setChanged] = useState(false);
  const action = useAction();
  const { refresh } = useSession();
  const mismatch = draft.repeated !== '' && draft.repeated !== draft.newPassword;

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (mismatch) return;
    setChanged(false);
    // A wrong current password answers 401 while the session is fine: it must not count as being signed out.
    const answer = await action.run(() => api.post<SessionAnswer>('/auth/password', { currentPassword: draft.currentPassword, newPassword: draft.newPassword }, { quiet401: true }));
    if (!answer) return;
    setDraft({ currentPassword: '', newPassword: '', repeated: '' });
    setChanged(true);
    // The session was renewed: its CSRF token with it.
    void refresh();
  }

  return (
    <Card title="Change password">
      <form className="form-stack" onSubmit={(event) => void submit(event)}>
        <Field label="Current password">{(props) => <input {...props} type="password" autoComplete="current-password" required value={draft.currentPassword} onChange={(e) => setDraft({ ...draft, currentPassword: e.target.value })} />}</Field>
        <Field label="New password" hint="12 to 200 characters.">
          {(props) => <input {...props} type="password" autoComplete="new-password" required minLength={12} maxLength={200} value={draft.newPassword} onChange={(e) => setDraft({ ...draft, newPassword: e.target.value })} />}
        </Field>
        <Field label="New password again" hint={mismatch ? 'The two new passwords differ.' : undefined}>
          {(props) => <input {...props} type="password" autoComplete="new-password" required value={draft.repeated} onChange={(e) => setDraft({ ...draft, repeated: e.target.value })} aria-invalid={mismatch} />}
        </Field>
        {action.error?.code === 'unauthorized' ? (
          <Alert title="The current password is wrong">Nothing was changed.</Alert>
        ) : (
          <ErrorAlert error={action.error} />
        )}
        {changed ? (
          <Alert tone="success" title="Password changed">
            Every other browser signed in as you has been signed out.
          </Alert>
        ) : null}
        <div className="form-actions">
          <button type="submit" className="btn btn-primary" disabled={action.busy || mismatch}>
            Change password
          </button>
        </div>
      </form>
    </Card>
  );
}

/** The client's own zone: scheduled times are read in it, and times and days are shown in it. */
function TimeZoneSetting({ onSaved }: { onSaved: () => void }) {
  const settings = useApi<ClientSettings>('/settings');
  const [zone, setZone] = useState('');
  const [saved, setSaved] = useState<string | null>(null);
  const action = useAction();
  const current = settings.data?.timeZone;

  useEffect(() => {
    if (current) setZone(current);
  }, [current]);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setSaved(null);
    const answer = await action.run(() => api.put<ClientSettings>('/settings/time-zone', { timeZone: zone }));
    if (!answer) return;
    setSaved(answer.timeZone);
    settings.reload();
    onSaved();
  }

  return (
    <Card title="Time zone">
      {settings.error ? <ErrorAlert error={settings.error} /> : null}
      {!settings.data && !settings.error ? <Loading /> : null}
      {settings.data ? (
        <form className="form-stack" onSubmit={(event) => void submit(event)}>
          <Field
            label="Time zone"
            hint="The API reads scheduled_at, expires_at and task list dates in this zone; the dashboard shows times and counts days in it. Tasks already queued keep the moment they are due; their local times are shown in the new zone."
          >
            {(props) => (
              <select {...props} name="timeZone" value={zone} onChange={(e) => setZone(e.target.value)}>
                {timeZoneChoices(current).map((name) => (
                  <option key={name} value={name}>
                    {name}
                  </option>
                ))}
              </select>
            )}
          </Field>
          <ErrorAlert error={action.error} />
          {saved ? (
            <Alert tone="success" title="Time zone saved">
              Times are now in {saved}.
            </Alert>
          ) : null}
          <div className="form-actions">
            <button type="submit" className="btn btn-primary" disabled={action.busy || zone === current}>
              Save time zone
            </button>
          </div>
        </form>
      ) : null}
    </Card>
  );
}


type WindowDraft = SendWindow & { key: number };

interface SendingDraft {
  routingMode: RoutingMode;
  stickyDays: string;
  sendWindows: WindowDraft[];
}

/** Keys of the windows on the form, so removing one keeps the others' fields (and focus) where they are. */
let windowKeys = 0;

function windowDraftOf(sendWindow: SendWindow): WindowDraft {
  return { ...sendWindow, key: ++windowKeys };
}

function sendingDraftOf(shown: SendingRules): SendingDraft {
  return { routingMode: shown.routingMode, stickyDays: String(shown.stickyDays), sendWindows: shown.sendWindows.map(windowDraftOf) };
}

/** One send window of the form: its days, its hours, and a way to remove it. */
function SendWindowFields({ index, value, onChange, onRemove }: { index: number; value: WindowDraft; onChange: (changed: WindowDraft) => void; onRemove: () => void }) {
  const name = `Window ${index + 1}`;
  return (
    <li data-testid={`send-window-${index + 1}`}>
      <fieldset className="send-window">
        <legend className="sr-only">{name}</legend>
        <fieldset className="checkbox-group">
          <legend>{`${name}: days`}</legend>
          {WEEKDAYS.map((day) => (
            <label key={day} className="checkbox">
              <input
                type="checkbox"
                aria-label={DAY_NAMES[day].long}
                checked={value.days.includes(day)}
                onChange={(event) => onChange({ ...value, days: event.target.checked ? [...value.days, day] : value.days.filter((chosen) => chosen !== day) })}
              />
              <span aria-hidden="true">{DAY_NAMES[day].short}</span>
            </label>
          ))}
        </fieldset>
        <Field label="From">{(props) => <input {...props} type="time" required value={value.from} onChange={(event) => onChange({ ...value, from: event.target.value })} />}</Field>
        <Field label="To">{(props) => <input {...props} type="time" required value={value.to} onChange={(event) => onChange({ ...value, to: event.target.value })} />}</Field>
        <button type="button" className="btn btn-ghost btn-sm" aria-label={`Remove window ${index + 1}`} onClick={onRemove}>
          Remove
        </button>
      </fieldset>
    </li>
  );
}

/**
 * How the client's messages are spread over its phones (Profile B: its VIP gateways) and the
 * hours they go out, with what each choice does; `zoneVersion` changes when the zone does, so the
 * windows' state is read again in the new one.
 */
function SendingSetting({ profile, zoneVersion }: { profile: 'A' | 'B'; zoneVersion: number }) {
  const rules = useApi<SendingRules>('/settings/sending');
  const [draft, setDraft] = useState<SendingDraft | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [saved, setSaved] = useState(false);
  /** The rules the last save answered, shown at once rather than after the page reads them again. */
  const [answered, setAnswered] = useState<SendingRules | null>(null);
  const action = useAction();
  const id = useId();
  const choices = routingModeChoices(profile);
  const noun = profile === 'A' ? 'phone' : 'gateway';
  const { data: loaded, reload } = rules;

  // The form is filled once, from the first answer; later reads only refresh the windows' state.
  useEffect(() => {
    if (loaded) setDraft((current) => current ?? sendingDraftOf(loaded));
  }, [loaded]);

  useEffect(() => {
    if (zoneVersion === 0) return;
    setAnswered(null);
    reload();
  }, [zoneVersion, reload]);
  const shown = answered ?? rules.data;

  function edit(change: Partial<SendingDraft>) {
    if (!draft) return;
    setDraft({ ...draft, ...change });
    setSaved(false);
    setProblem(null);
  }

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!draft) return;
    const parsed = parseSendingRules(draft);
    if (!parsed.ok) {
      setProblem(parsed.error);
      return;
    }
    setProblem(null);
    setSaved(false);
    const answer = await action.run(() => api.put<SendingRules>('/settings/sending', parsed.rules));
    if (!answer) return;
    setDraft(sendingDraftOf(answer));
    setAnswered(answer);
    setSaved(true);
  }

  return (
    <Card title="Sending" titleId="sending">
      {rules.error ? <ErrorAlert error={rules.error} /> : null}
      {!draft && !rules.error ? <Loading /> : null}
      {draft && shown ? (
        <form className="form-stack" onSubmit={(event) => void submit(event)} noValidate>
          <fieldset className="choice-list">
            <legend>Routing mode</legend>
            {choices.map((choice) => (
              <div className="choice" key={choice.mode}>
                <input
                  id={`${id}-${choice.mode}`}
                  type="radio"
                  name={`${id}-routing-mode`}
                  value={choice.mode}
                  checked={draft.routingMode === choice.mode}
                  onChange={() => edit({ routingMode: choice.mode })}
                  aria-describedby={`${id}-${choice.mode}-hint`}
                />
                <label htmlFor={`${id}-${choice.mode}`}>
                  <strong>{choice.label}</strong>
                  {choice.mode === 'first' ? <span className="muted"> (default)</span> : null}
                </label>
                <p className="hint" id={`${id}-${choice.mode}-hint`}>
                  {choice.description}
                </p>
              </div>
            ))}
          </fieldset>
          {draft.routingMode === 'sticky' ? (
            <Field label="Sticky days" hint={`A recipient keeps its ${noun} this many days after its last message (1 to ${MAX_STICKY_DAYS}; ${DEFAULT_STICKY_DAYS} unless you set it); after that, or while its ${noun} cannot send, it is placed as Spread would.`}>
              {(props) => <input {...props} inputMode="numeric" required value={draft.stickyDays} onChange={(event) => edit({ stickyDays: event.target.value })} className="short-input" />}
            </Field>
          ) : null}
          <fieldset className="choice-list" aria-describedby={`${id}-windows-hint`}>
            <legend>Send windows</legend>
            <p className="hint" id={`${id}-windows-hint`}>
              The hours in which your messages go out, in your account’s time zone ({shown.timeZone}). With no windows they go at any hour. A message created outside them waits (it is charged when it is created) and
              goes when a window opens, oldest first. Messages sent with priority “high” (one-time codes, alerts) ignore the windows. An end at or before the start runs past midnight (22:00 to 06:00).
            </p>
            <SendWindowState rules={shown} />
            {draft.sendWindows.length > 0 ? (
              <ol className="send-windows">
                {draft.sendWindows.map((sendWindow, index) => (
                  <SendWindowFields
                    key={sendWindow.key}
                    index={index}
                    value={sendWindow}
                    onChange={(changed) => edit({ sendWindows: draft.sendWindows.map((candidate) => (candidate.key === changed.key ? changed : candidate)) })}
                    onRemove={() => edit({ sendWindows: draft.sendWindows.filter((candidate) => candidate.key !== sendWindow.key) })}
                  />
                ))}
              </ol>
            ) : null}
            <div>
              <button
                type="button"
                className="btn btn-secondary btn-sm"
                disabled={draft.sendWindows.length >= MAX_SEND_WINDOWS}
                onClick={() => edit({ sendWindows: [...draft.sendWindows, windowDraftOf(newSendWindow())] })}
              >
                Add a window
              </button>
            </div>
          </fieldset>
          {problem ? (
            <Alert tone="error" title="Not saved">
              <span data-testid="sending-problem">{problem}</span>
            </Alert>
          ) : null}
          <ErrorAlert error={action.error} />
          {saved ? <Alert tone="success" title="Sending rules saved" /> : null}
          <div className="form-actions">
            <button type="submit" className="btn btn-primary" disabled={action.busy}>
              Save sending rules
            </button>
          </div>
        </form>
      ) : null}
    </Card>
  );
}

export function SettingsPage() {
  const { session } = useSession();
  const hasClient = session.user?.clientId !== null && session.user?.clientId !== undefined;
  const [zoneVersion, setZoneVersion] = useState(0);
  return (
    <>
      <PageHeader title="Settings" subtitle={hasClient ? 'Your sign-in to this dashboard, your account’s time zone, how and when its messages are sent, and its SMPP credentials.' : 'Your sign-in to this dashboard.'} />
      {hasClient ? <TimeZoneSetting onSaved={() => setZoneVersion((version) => version + 1)} /> : null}
      {hasClient ? <SendingSetting profile={session.profile} zoneVersion={zoneVersion} /> : null}
      {hasClient ? <SmppSetting /> : null}
      <ChangePassword />
    </>
  );
}
