import { Injectable } from '@nestjs/common';
import { DomainError } from '@smsq/contracts';
import type { SessionAnswer, SessionUser } from '@smsq/dashboard-api';
import { SMSQ_VERSION } from '@smsq/platform';
import { DashboardConfig } from '../config/dashboard-config.js';
import { ClientAccess } from '../shared/client-access.js';
import { normaliseEmail } from '../users/email.js';
import type { StoredUser } from '../users/users.repository.js';
import { sessionUserOf, UsersService } from '../users/users.service.js';
import { WORKER_DOWNLOAD_PATH, workerFileExists } from '../web/worker-download.js';
import { csrfTokenFor } from './csrf-token.js';
import type { PasswordChangeBody, SignInBody, SignUpBody } from './dto/credentials.body.js';
import { SessionStore } from './session-store.js';
import { SignInThrottle } from './sign-in-throttle.js';

/** The right password of a user whose client an admin has disabled: 403 `client_disabled` (see ClientDisabledFilter). */
export class ClientDisabledError extends DomainError {
  constructor() {
    super('unauthorized', 'your client account is disabled by an administrator; ask them to enable it');
  }
}

export interface StartedSession {
  sessionId: string;
  user: SessionUser;
}

@Injectable()
export class AuthService {
  constructor(
    private readonly config: DashboardConfig,
    private readonly users: UsersService,
    private readonly sessions: SessionStore,
    private readonly throttle: SignInThrottle,
    private readonly access: ClientAccess,
  ) {}

  /** The signed-in user behind a session id, or null. */
  async userOf(sessionId: string | undefined): Promise<SessionUser | null> {
    if (sessionId === undefined) return null;
    const session = await this.sessions.touch(sessionId);
    if (session === null) return null;
    const user = await this.users.find(session.userId);
    // A new password (changed or reset) ends every session signed in with an earlier one, on every browser,
    // however late its sign-in finished.
    if (!user || user.passwordVersion !== session.passwordVersion) {
      await this.sessions.destroy(sessionId);
      return null;
    }
    // A disabled client's sessions end (within ClientAccess's few seconds); enabling it lets its users sign in again.
    if (await this.clientIsDisabled(user, 'recently')) {
      await this.sessions.destroy(sessionId);
      return null;
    }
    return sessionUserOf(user);
  }

  /**
   * A signed-in user's new password, given the current one. Every other session of the user ends;
   * this browser gets a fresh session holding the new password's version, so it stays signed in.
   */
  async changePassword(signedIn: SessionUser, body: PasswordChangeBody, ip: string, sessionId: string | undefined): Promise<StartedSession> {
    // A stolen session must not become a way to guess the password: the sign-in throttle counts these tries too.
    await this.throttle.assertAllowed(signedIn.email, ip);
    let user;
    try {
      user = await this.users.changePassword(signedIn.id, body.currentPassword, body.newPassword);
    } catch (error) {
      if (error instanceof DomainError && error.code === 'unauthorized') await this.throttle.recordFailure(signedIn.email, ip);
      throw error;
    }
    await this.throttle.recordSuccess(signedIn.email);
    return this.startSession(user, sessionId);
  }

  async signUp(body: SignUpBody, previousSessionId: string | undefined): Promise<StartedSession> {
    const user = await this.users.signUp(body.email, body.password);
    return this.startSession(user, previousSessionId);
  }

  async signIn(body: SignInBody, ip: string, previousSessionId: string | undefined): Promise<StartedSession> {
    const email = normaliseEmail(body.email);
    await this.throttle.assertAllowed(email, ip);
    const user = await this.users.authenticate(email, body.password);
    if (!user) {
      await this.throttle.recordFailure(email, ip);
      throw new DomainError('unauthorized', 'the email address or the password is wrong');
    }
    await this.throttle.recordSuccess(email);
    // Only after the right password, so a disabled client tells nothing to someone guessing.
    if (await this.clientIsDisabled(user, 'now')) throw new ClientDisabledError();
    // The version read with the hash just checked: a reset meanwhile ends this session at its first request.
    return this.startSession(user, previousSessionId);
  }

  async signOut(sessionId: string | undefined): Promise<void> {
    if (sessionId !== undefined) await this.sessions.destroy(sessionId);
  }

  /** What the front end learns about this browser: who is signed in and the CSRF token tied to its cookie; and where the public API is. */
  answer(user: SessionUser | null, browserId: string): SessionAnswer {
    return {
      user,
      csrfToken: csrfTokenFor(this.config.secret, browserId),
      profile: this.config.profile,
      apiBaseUrl: this.config.publicApiUrl,
      defaultTimeZone: this.config.defaultTimeZone,
      apiBaseUrlIsLoopback: this.config.publicApiUrlIsLoopback,
      workerDownloadUrl: workerFileExists(this.config.workerFile) ? WORKER_DOWNLOAD_PATH : null,
      version: SMSQ_VERSION,
    };
  }

  /** Admins act for every client and are never shut out by one; a client user is while its client is disabled. */
  private async clientIsDisabled(user: StoredUser, asOf: 'now' | 'recently'): Promise<boolean> {
    if (user.role !== 'client' || user.clientId === null) return false;
    return asOf === 'now' ? this.access.isDisabledNow(user.clientId) : this.access.isDisabled(user.clientId);
  }

  /** Always a new id, so an id planted before sign-in is worth nothing after it. */
  private async startSession(user: StoredUser, previousSessionId: string | undefined): Promise<StartedSession> {
    if (previousSessionId !== undefined) await this.sessions.destroy(previousSessionId);
    return { sessionId: await this.sessions.create(user.id, user.passwordVersion), user: sessionUserOf(user) };
  }
}
