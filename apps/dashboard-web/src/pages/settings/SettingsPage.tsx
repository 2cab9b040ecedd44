import type { ClientSettings, SessionAnswer } from '@smsq/dashboard-api';
import { useEffect, useState, type FormEvent } from 'react';
import { api } from '../../api/client';
import { useAction, useApi } from '../../api/useApi';
import { useSession } from '../../auth/session';
import { Alert, ErrorAlert } from '../../components/Alert';
import { Card, Field, Loading, PageHeader } from '../../components/ui';
import { timeZoneChoices } from '../../lib/time-zones';

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
function TimeZoneSetting() {
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

export function SettingsPage() {
  const { session } = useSession();
  const hasClient = session.user?.clientId !== null && session.user?.clientId !== undefined;
  return (
    <>
      <PageHeader title="Settings" subtitle={hasClient ? 'Your sign-in to this dashboard, and your account’s time zone.' : 'Your sign-in to this dashboard.'} />
      {hasClient ? <TimeZoneSetting /> : null}
      <ChangePassword />
    </>
  );
}
