import type { ReactNode } from 'react';
import { BrowserRouter, Navigate, Route, Routes, useLocation } from 'react-router';
import { SignInPage, SignUpPage } from './auth/AuthPages';
import { ForgotPasswordPage, ResetPasswordPage } from './auth/PasswordResetPages';
import { SessionProvider, useSession } from './auth/session';
import { ErrorAlert } from './components/Alert';
import { Layout } from './components/Layout';
import { Loading } from './components/ui';
import { ClientDetailPage } from './pages/admin/ClientDetailPage';
import { ClientsPage } from './pages/admin/ClientsPage';
import { GatewaysPage } from './pages/admin/GatewaysPage';
import { SystemPage } from './pages/admin/SystemPage';
import { WorkerTokensPage } from './pages/admin/WorkerTokensPage';
import { ConversationsPage } from './pages/conversations/ConversationsPage';
import { ThreadPage } from './pages/conversations/ThreadPage';
import { InboxPage } from './pages/inbox/InboxPage';
import { ApiKeysPage } from './pages/keys/ApiKeysPage';
import { NotFoundPage } from './pages/NotFoundPage';
import { OptOutsPage } from './pages/opt-outs/OptOutsPage';
import { OverviewPage } from './pages/overview/OverviewPage';
import { PhonesPage } from './pages/phones/PhonesPage';
import { SendPage } from './pages/send/SendPage';
import { SettingsPage } from './pages/settings/SettingsPage';
import { TaskDetailPage } from './pages/tasks/TaskDetailPage';
import { TemplatesPage } from './pages/templates/TemplatesPage';
import { TasksPage } from './pages/tasks/TasksPage';
import { WebhooksPage } from './pages/webhooks/WebhooksPage';

/** Only same-app paths; never back to the auth pages. */
function safeReturnPath(from: unknown): string {
  if (typeof from !== 'string' || !from.startsWith('/') || from.startsWith('//')) return '/';
  if (['/signin', '/signup', '/forgot-password', '/reset-password'].some((page) => from.startsWith(page))) return '/';
  return from;
}

/** Signed out → /signin (remembering where the user was going). */
function RequireAuth({ children }: { children: ReactNode }) {
  const { session, signedOut } = useSession();
  const location = useLocation();
  if (!session.user) return <Navigate to="/signin" replace state={signedOut ? null : { from: location.pathname + location.search }} />;
  return <>{children}</>;
}

/** Signed in → away from the sign-in and sign-up pages, back to where the user was going. */
function PublicOnly({ children }: { children: ReactNode }) {
  const { session } = useSession();
  const location = useLocation();
  if (session.user) return <Navigate to={safeReturnPath((location.state as { from?: unknown } | null)?.from)} replace />;
  return <>{children}</>;
}

function RequireAdmin({ children }: { children: ReactNode }) {
  const { session } = useSession();
  if (session.user?.role !== 'admin') return <NotFoundPage />;
  return <>{children}</>;
}

/** Client pages need a client; an admin without one starts at Clients. */
function RequireClient({ children }: { children: ReactNode }) {
  const { session } = useSession();
  if (session.user?.clientId === null) return session.user.role === 'admin' ? <Navigate to="/admin/clients" replace /> : <NotFoundPage />;
  return <>{children}</>;
}

function SessionFailed({ error, retry }: { error: Parameters<typeof ErrorAlert>[0]['error']; retry: () => void }) {
  return (
    <main className="center-page" id="main">
      <div className="card narrow">
        <h1>smsq dashboard</h1>
        <ErrorAlert error={error} fallbackDetail="The dashboard could not load your session." />
        <button type="button" className="btn btn-primary" onClick={retry}>
          Try again
        </button>
      </div>
    </main>
  );
}

export function App() {
  return (
    <SessionProvider
      loading={
        <main className="center-page">
          <Loading label="Loading the dashboard…" />
        </main>
      }
      failed={(error, retry) => <SessionFailed error={error} retry={retry} />}
    >
      <BrowserRouter>
        <Routes>
          <Route
            path="/signin"
            element={
              <PublicOnly>
                <SignInPage />
              </PublicOnly>
            }
          />
          <Route
            path="/signup"
            element={
              <PublicOnly>
                <SignUpPage />
              </PublicOnly>
            }
          />
          <Route
            path="/forgot-password"
            element={
              <PublicOnly>
                <ForgotPasswordPage />
              </PublicOnly>
            }
          />
          {/* Signed in or not: a link from the mail may be opened in a browser signed in as someone else. */}
          <Route path="/reset-password" element={<ResetPasswordPage />} />
          <Route
            element={
              <RequireAuth>
                <Layout />
              </RequireAuth>
            }
          >
            <Route index element={<RequireClient><OverviewPage /></RequireClient>} />
            <Route path="keys" element={<RequireClient><ApiKeysPage /></RequireClient>} />
            <Route path="phones" element={<RequireClient><PhonesPage /></RequireClient>} />
            <Route path="send" element={<RequireClient><SendPage /></RequireClient>} />
            <Route path="tasks" element={<RequireClient><TasksPage /></RequireClient>} />
            <Route path="tasks/:id" element={<RequireClient><TaskDetailPage /></RequireClient>} />
            <Route path="inbox" element={<RequireClient><InboxPage /></RequireClient>} />
            <Route path="conversations" element={<RequireClient><ConversationsPage /></RequireClient>} />
            <Route path="conversations/:number" element={<RequireClient><ThreadPage /></RequireClient>} />
            <Route path="webhooks" element={<RequireClient><WebhooksPage /></RequireClient>} />
            <Route path="opt-outs" element={<RequireClient><OptOutsPage /></RequireClient>} />
            <Route path="templates" element={<RequireClient><TemplatesPage /></RequireClient>} />
            <Route path="settings" element={<SettingsPage />} />
            <Route path="admin/clients" element={<RequireAdmin><ClientsPage /></RequireAdmin>} />
            <Route path="admin/clients/:id" element={<RequireAdmin><ClientDetailPage /></RequireAdmin>} />
            <Route path="admin/gateways" element={<RequireAdmin><GatewaysPage /></RequireAdmin>} />
            <Route path="admin/worker-tokens" element={<RequireAdmin><WorkerTokensPage /></RequireAdmin>} />
            <Route path="admin/system" element={<RequireAdmin><SystemPage /></RequireAdmin>} />
            <Route path="*" element={<NotFoundPage />} />
          </Route>
        </Routes>
      </BrowserRouter>
    </SessionProvider>
  );
}
