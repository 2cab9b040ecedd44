import type { ReactNode } from 'react';
import { ApiError } from '../api/client';
import { humanizeCode } from '../lib/format';

const FRIENDLY: Record<string, string> = {
  unauthorized: 'You are not signed in',
  not_found: 'Not found',
  invalid_request: 'Please check the form',
  payment_required: 'Not enough credits',
  insufficient_credits: 'Not enough credits',
  forbidden: 'Not allowed',
  conflict: 'Already exists',
  network_error: 'Cannot reach the server',
  csrf: 'Your session expired — reload the page',
  client_disabled: 'This account is disabled',
  rate_limited: 'Too many attempts',
};

const FRIENDLY_DETAIL: Record<string, string> = {
  not_found: 'It may have been removed, or it belongs to another account.',
  unauthorized: 'Sign in again to continue.',
  network_error: 'Check your connection and try again.',
};

export function errorTitle(error: ApiError): string {
  return FRIENDLY[error.code] ?? humanizeCode(error.code);
}

interface AlertProps {
  tone?: 'error' | 'success' | 'info' | 'warning';
  title?: ReactNode;
  children?: ReactNode;
  onDismiss?: () => void;
}

/** Errors use role="alert" (announced at once); other tones are a polite status. */
export function Alert({ tone = 'error', title, children, onDismiss }: AlertProps) {
  return (
    <div className={`alert alert-${tone}`} role={tone === 'error' ? 'alert' : 'status'}>
      <span className="alert-icon" aria-hidden="true" />
      <div className="alert-body">
        {title ? <strong className="alert-title">{title}</strong> : null}
        {children ? <div className="alert-text">{children}</div> : null}
      </div>
      {onDismiss ? (
        <button type="button" className="btn-icon" onClick={onDismiss} aria-label="Dismiss">
          ×
        </button>
      ) : null}
    </div>
  );
}

/** Shows an API error `{ error, detail }` — as text only, never as HTML. */
export function ErrorAlert({ error, onDismiss, fallbackDetail }: { error: ApiError | undefined | null; onDismiss?: () => void; fallbackDetail?: string }) {
  if (!error) return null;
  return (
    <Alert tone="error" title={errorTitle(error)} onDismiss={onDismiss}>
      {error.detail ?? fallbackDetail ?? FRIENDLY_DETAIL[error.code] ?? (error.status ? `The server answered ${error.status} (${error.code}).` : null)}
    </Alert>
  );
}
