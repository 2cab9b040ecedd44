import type { Credentials, SessionAnswer } from '@smsq/dashboard-api';
import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import { ApiError, api, onUnauthorized, setCsrfToken } from '../api/client';

interface SessionContextValue {
  session: SessionAnswer;
  /** True after an explicit sign-out: the next sign-in starts at the overview, not the last page. */
  signedOut: boolean;
  refresh: () => Promise<SessionAnswer>;
  signIn: (credentials: Credentials) => Promise<void>;
  signUp: (credentials: Credentials) => Promise<void>;
  signOut: () => Promise<void>;
}

const SessionContext = createContext<SessionContextValue | null>(null);

export function useSession(): SessionContextValue {
  const value = useContext(SessionContext);
  if (!value) throw new Error('useSession outside SessionProvider');
  return value;
}

/** Reads GET /api/auth/session before anything renders; the answer carries the CSRF token. */
export function SessionProvider({ children, loading, failed }: { children: ReactNode; loading: ReactNode; failed: (error: ApiError, retry: () => void) => ReactNode }) {
  const [session, setSession] = useState<SessionAnswer | null>(null);
  const [error, setError] = useState<ApiError | null>(null);
  const [signedOut, setSignedOut] = useState(false);

  const refresh = useCallback(async () => {
    const answer = await api.get<SessionAnswer>('/auth/session');
    setCsrfToken(answer.csrfToken);
    setSession(answer);
    setError(null);
    return answer;
  }, []);

  const load = useCallback(() => {
    refresh().catch((caught: unknown) => setError(caught instanceof ApiError ? caught : new ApiError(0, 'unexpected_error', String(caught))));
  }, [refresh]);

  useEffect(() => {
    load();
    onUnauthorized(() => void refresh().catch(() => undefined));
    return () => onUnauthorized(null);
  }, [load, refresh]);

  const signIn = useCallback(
    async (credentials: Credentials) => {
      const answer = await api.post<SessionAnswer>('/auth/signin', credentials, { quiet401: true });
      if (answer?.csrfToken) setCsrfToken(answer.csrfToken);
      setSignedOut(false);
      await refresh();
    },
    [refresh],
  );
  const signUp = useCallback(
    async (credentials: Credentials) => {
      const answer = await api.post<SessionAnswer>('/auth/signup', credentials, { quiet401: true });
      if (answer?.csrfToken) setCsrfToken(answer.csrfToken);
      setSignedOut(false);
      await refresh();
    },
    [refresh],
  );
  const signOut = useCallback(async () => {
    setSignedOut(true);
    try {
      await api.post<void>('/auth/signout');
    } finally {
      await refresh();
    }
  }, [refresh]);

  const value = useMemo(() => (session ? { session, signedOut, refresh, signIn, signUp, signOut } : null), [session, signedOut, refresh, signIn, signUp, signOut]);

  if (error && !session) return <>{failed(error, load)}</>;
  if (!value) return <>{loading}</>;
  return <SessionContext.Provider value={value}>{children}</SessionContext.Provider>;
}
