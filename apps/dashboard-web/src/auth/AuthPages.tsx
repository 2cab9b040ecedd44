import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { ApiError } from '../api/client';
import { Alert, ErrorAlert } from '../components/Alert';
import { AuthLayout } from '../components/Layout';
import { Field, usePageTitle } from '../components/ui';
import { useSession } from './session';

export const MIN_PASSWORD_LENGTH = 12;

function AuthForm({ mode }: { mode: 'signin' | 'signup' }) {
  const { signIn, signUp } = useSession();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ApiError | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const signup = mode === 'signup';
  const title = signup ? 'Create your account' : 'Sign in to smsq';
  usePageTitle(signup ? 'Sign up' : 'Sign in');

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setError(null);
    setProblem(null);
    if (!email.includes('@')) return setProblem('Enter a valid email address.');
    if (signup && password.length < MIN_PASSWORD_LENGTH) return setProblem(`Use a password of at least ${MIN_PASSWORD_LENGTH} characters.`);
    if (!password) return setProblem('Enter your password.');
    setBusy(true);
    try {
      // The new session re-renders the route, which then leaves this page (see PublicOnly in App).
      await (signup ? signUp : signIn)({ email: email.trim(), password });
    } catch (caught) {
      const apiError = caught instanceof ApiError ? caught : new ApiError(0, 'unexpected_error', String(caught));
      if (!signup && apiError.status === 401) setProblem('That email and password do not match an account.');
      else setError(apiError);
      setBusy(false);
    }
  }

  return (
    <div className="auth-card card">
      <h1>{title}</h1>
      <p className="muted">{signup ? 'Queue SMS through a simple JSON API. Free to start.' : 'Welcome back. Sign in to manage keys, phones and messages.'}</p>
      {problem ? <Alert tone="error">{problem}</Alert> : null}
      <ErrorAlert error={error} />
      <form onSubmit={(event) => void submit(event)} noValidate className="form-stack">
        <Field label="Email">{(props) => <input {...props} type="email" name="email" autoComplete="email" required value={email} onChange={(e) => setEmail(e.target.value)} />}</Field>
        <Field label="Password" hint={signup ? `At least ${MIN_PASSWORD_LENGTH} characters.` : undefined}>
          {(props) => (
            <input
              {...props}
              type="password"
              name="password"
              autoComplete={signup ? 'new-password' : 'current-password'}
              required
              minLength={signup ? MIN_PASSWORD_LENGTH : undefined}
              value={password}
              onChange={(e) => setPassword(e.target.value)}
            />
          )}
        </Field>
        <button type="submit" className="btn btn-primary btn-block" disabled={busy} aria-busy={busy}>
          {signup ? 'Sign up' : 'Sign in'}
        </button>
      </form>
      {signup ? null : (
        <p className="auth-switch">
          <Link to="/forgot-password">Forgot your password?</Link>
        </p>
      )}
      <p className="auth-switch">
        {signup ? (
          <>
            Already have an account? <Link to="/signin">Sign in instead</Link>
          </>
        ) : (
          <>
            New to smsq? <Link to="/signup">Create an account</Link>
          </>
        )}
      </p>
    </div>
  );
}

export function SignInPage() {
  return (
    <AuthLayout>
      <AuthForm mode="signin" />
    </AuthLayout>
  );
}

export function SignUpPage() {
  return (
    <AuthLayout>
      <AuthForm mode="signup" />
    </AuthLayout>
  );
}
