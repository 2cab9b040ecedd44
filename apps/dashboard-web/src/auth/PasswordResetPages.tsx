import { useState, type FormEvent } from 'react';
import { Link, useLocation } from 'react-router';
import { api, ApiError } from '../api/client';
import { Alert, ErrorAlert } from '../components/Alert';
import { AuthLayout } from '../components/Layout';
import { Field, usePageTitle } from '../components/ui';
import { MIN_PASSWORD_LENGTH } from './AuthPages';

function asApiError(caught: unknown): ApiError {
  return caught instanceof ApiError ? caught : new ApiError(0, 'unexpected_error', String(caught));
}

/** /forgot-password: the same answer whatever the address, as the server gives. */
export function ForgotPasswordPage() {
  usePageTitle('Forgot your password?');
  const [email, setEmail] = useState('');
  const [busy, setBusy] = useState(false);
  const [sent, setSent] = useState(false);
  const [error, setError] = useState<ApiError | null>(null);
  const [problem, setProblem] = useState<string | null>(null);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setError(null);
    setProblem(null);
    if (!email.trim()) return setProblem('Enter the email address you sign in with.');
    setBusy(true);
    try {
      await api.post('/auth/password-reset', { email: email.trim() }, { quiet401: true });
      setSent(true);
    } catch (caught) {
      setError(asApiError(caught));
    } finally {
      setBusy(false);
    }
  }

  return (
    <AuthLayout>
      <div className="auth-card card">
        <h1>Forgot your password?</h1>
        {sent ? (
          <Alert tone="success" title="Check your email">
            If an account uses {email.trim()}, a link to set a new password is on its way. It works once, within an hour. Without a mail server the link is in the dashboard's log: ask your administrator.
          </Alert>
        ) : (
          <>
            <p className="muted">Enter the email address you sign in with and we will send you a link to set a new password.</p>
            {problem ? <Alert tone="error">{problem}</Alert> : null}
            <ErrorAlert error={error} />
            <form onSubmit={(event) => void submit(event)} noValidate className="form-stack">
              <Field label="Email">{(props) => <input {...props} type="email" name="email" autoComplete="email" required value={email} onChange={(e) => setEmail(e.target.value)} />}</Field>
              <button type="submit" className="btn btn-primary btn-block" disabled={busy} aria-busy={busy}>
                Send the link
              </button>
            </form>
          </>
        )}
        <p className="auth-switch">
          Remembered it? <Link to="/signin">Sign in</Link>
        </p>
      </div>
    </AuthLayout>
  );
}

/** /reset-password#token=…: the token stays in the fragment, which the browser never sends to a server. */
export function ResetPasswordPage() {
  usePageTitle('Set a new password');
  const location = useLocation();
  const token = new URLSearchParams(location.hash.replace(/^#/, '')).get('token') ?? '';
  const [draft, setDraft] = useState({ newPassword: '', repeated: '' });
  const [busy, setBusy] = useState(false);
  const [done, setDone] = useState(false);
  const [error, setError] = useState<ApiError | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const mismatch = draft.repeated !== '' && draft.repeated !== draft.newPassword;

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setError(null);
    setProblem(null);
    if (draft.newPassword.length < MIN_PASSWORD_LENGTH) return setProblem(`Use a password of at least ${MIN_PASSWORD_LENGTH} characters.`);
    if (mismatch) return setProblem('The two passwords differ.');
    setBusy(true);
    try {
      await api.post('/auth/password-reset/complete', { token, newPassword: draft.newPassword }, { quiet401: true });
      setDone(true);
    } catch (caught) {
      setError(asApiError(caught));
    } finally {
      setBusy(false);
    }
  }

  return (
    <AuthLayout>
      <div className="auth-card card">
        <h1>Set a new password</h1>
        {!token ? (
          <Alert tone="error" title="This link is incomplete">
            Open the link from the message exactly as it was sent, or <Link to="/forgot-password">ask for a new one</Link>.
          </Alert>
        ) : done ? (
          <Alert tone="success" title="Password changed">
            Every browser that was signed in as you has been signed out. <Link to="/signin">Sign in with your new password</Link>.
          </Alert>
        ) : (
          <>
            {problem ? <Alert tone="error">{problem}</Alert> : null}
            {error?.code === 'invalid_request' && error.detail?.includes('link') ? (
              <Alert tone="error" title="This link no longer works">
                It was used already, has expired, or a newer one was sent. <Link to="/forgot-password">Ask for a new link</Link>.
              </Alert>
            ) : (
              <ErrorAlert error={error} />
            )}
            <form onSubmit={(event) => void submit(event)} noValidate className="form-stack">
              <Field label="New password" hint={`${MIN_PASSWORD_LENGTH} to 200 characters.`}>
                {(props) => <input {...props} type="password" autoComplete="new-password" required minLength={MIN_PASSWORD_LENGTH} maxLength={200} value={draft.newPassword} onChange={(e) => setDraft({ ...draft, newPassword: e.target.value })} />}
              </Field>
              <Field label="New password again" hint={mismatch ? 'The two passwords differ.' : undefined}>
                {(props) => <input {...props} type="password" autoComplete="new-password" required value={draft.repeated} onChange={(e) => setDraft({ ...draft, repeated: e.target.value })} aria-invalid={mismatch} />}
              </Field>
              <button type="submit" className="btn btn-primary btn-block" disabled={busy || mismatch} aria-busy={busy}>
                Set new password
              </button>
            </form>
          </>
        )}
      </div>
    </AuthLayout>
  );
}
