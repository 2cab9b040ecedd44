import { useLayoutEffect, useState, type ReactNode } from 'react';
import { NavLink, Outlet, useLocation } from 'react-router';
import { useSession } from '../auth/session';
import { PassphraseProvider } from '../encryption/passphrase';

function Brand() {
  return (
    <span className="brand">
      <span className="brand-mark" aria-hidden="true">
        <svg viewBox="0 0 32 32" width="28" height="28">
          <rect width="32" height="32" rx="8" fill="currentColor" />
          <path d="M8 10h16v10H14l-6 4z" fill="#fff" />
        </svg>
      </span>
      <span className="brand-name">smsq</span>
    </span>
  );
}

/** The footer line of every page: which smsq this is, as the dashboard's back end reads it (the root package.json). */
function Version() {
  const { session } = useSession();
  return <footer className="version-footer">smsq {session.version}</footer>;
}

/** The signed-in shell: a sidebar (a top bar with a menu button on narrow screens) and the page. */
export function Layout() {
  const { session, signOut } = useSession();
  const user = session.user!;
  const location = useLocation();
  const [menuOpen, setMenuOpen] = useState(false);
  const [signingOut, setSigningOut] = useState(false);

  // Before paint, not after: a page that already takes input would lose the first keystrokes to the focus move.
  useLayoutEffect(() => {
    setMenuOpen(false);
    document.getElementById('main')?.focus({ preventScroll: true });
    window.scrollTo(0, 0);
  }, [location.pathname]);

  const link = (to: string, label: string, end = false) => (
    <li>
      <NavLink to={to} end={end} className={({ isActive }) => (isActive ? 'nav-link active' : 'nav-link')}>
        {label}
      </NavLink>
    </li>
  );
  const profileA = session.profile === 'A';
  const hasClient = user.clientId !== null;
  const isAdmin = user.role === 'admin';

  // The passphrase of encrypted messages lives in the signed-in shell: signing out (or in as another user) forgets it.
  return (
    <PassphraseProvider key={user.id}>
      <div className={`shell ${menuOpen ? 'menu-open' : ''}`}>
        <a href="#main" className="skip-link">
          Skip to content
        </a>
        <aside className="sidebar">
          <div className="sidebar-top">
            <Brand />
            <span className="profile-pill" title={profileA ? 'Own-phone model' : 'Pooled-gateway model'}>
              Profile {session.profile}
            </span>
            <button type="button" className="menu-button" aria-expanded={menuOpen} aria-controls="sidebar-nav" onClick={() => setMenuOpen((open) => !open)}>
              <span aria-hidden="true">{menuOpen ? '✕' : '☰'}</span> Menu
            </button>
          </div>
          <div className="sidebar-body" id="sidebar-nav">
            <nav aria-label="Main">
              {hasClient ? (
                <>
                  <p className="nav-heading">Workspace</p>
                  <ul className="nav-list">
                    {link('/', 'Overview', true)}
                    {link('/keys', 'API keys')}
                    {profileA ? link('/phones', 'Phones') : null}
                    {link('/send', 'Send')}
                    {link('/templates', 'Templates')}
                    {link('/tasks', 'Tasks')}
                    {link('/conversations', 'Conversations')}
                    {link('/inbox', 'Inbox')}
                    {link('/webhooks', 'Webhooks')}
                    {link('/opt-outs', 'Opt-outs')}
                  </ul>
                </>
              ) : null}
              {isAdmin ? (
                <>
                  <p className="nav-heading">Admin</p>
                  <ul className="nav-list">
                    {link('/admin/clients', 'Clients')}
                    {!profileA ? link('/admin/gateways', 'Gateways') : null}
                    {link('/admin/worker-tokens', 'Worker tokens')}
                    {link('/admin/system', 'System')}
                  </ul>
                </>
              ) : null}
            </nav>
            <div className="account">
              <p className="account-email" title={user.email}>
                {user.email}
              </p>
              <p className="account-role">{isAdmin ? 'Administrator' : 'Client'}</p>
              <NavLink to="/settings" className={({ isActive }) => (isActive ? 'nav-link active' : 'nav-link')}>
                Settings
              </NavLink>
              <button
                type="button"
                className="btn btn-secondary btn-sm btn-block"
                disabled={signingOut}
                onClick={() => {
                  setSigningOut(true);
                  void signOut().finally(() => setSigningOut(false));
                }}
              >
                Sign out
              </button>
            </div>
          </div>
        </aside>
        <main id="main" className="main" tabIndex={-1}>
          <Outlet />
          <Version />
        </main>
      </div>
    </PassphraseProvider>
  );
}

export function AuthLayout({ children }: { children: ReactNode }) {
  return (
    <div className="auth-shell">
      <main id="main" className="auth-main">
        <div className="auth-brand">
          <Brand />
        </div>
        {children}
        <p className="auth-footer">Outbound SMS queue · reliable delivery, credits you can see.</p>
        <Version />
      </main>
    </div>
  );
}
