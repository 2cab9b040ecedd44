import type { SessionAnswer } from '@smsq/dashboard-api';
import { useState, type FormEvent } from 'react';
import { api } from '../../api/client';
import { useAction } from '../../api/useApi';
import { useSession } from '../../auth/session';
import { Alert, ErrorAlert } from '../../components/Alert';
import { Card, Field, PageHeader } from '../../components/ui';

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

export function SettingsPage() {
  return (
    <>
      <PageHeader title="Settings" subtitle="Your sign-in to this dashboard." />
      <ChangePassword />
    </>
  );
}
