import { Inject, Injectable } from '@nestjs/common';
import { ConflictError, DomainError, Patterns, type AdminCreateCommand, type AdminCreated, type ClientCreateCommand, type ClientCreated, type PlanName } from '@smsq/contracts';
import { ServiceClient, serviceClientToken } from '@smsq/platform';
import type { SessionUser } from '@smsq/dashboard-api';
import { normaliseEmail } from './email.js';
import { PasswordHasher } from './password-hasher.js';
import { UsersRepository, type StoredUser } from './users.repository.js';

/** The gateway's client name is at most 200 characters; an address may be longer. */
const CLIENT_NAME_MAX = 200;

@Injectable()
export class UsersService {
  constructor(
    private readonly users: UsersRepository,
    private readonly hasher: PasswordHasher,
    @Inject(serviceClientToken('gateway')) private readonly gateway: ServiceClient,
  ) {}

  /** Self-service sign-up: a new client on the free plan, and a user acting as it. */
  async signUp(email: string, password: string): Promise<StoredUser> {
    const address = normaliseEmail(email);
    return this.createClientUser({ name: address.slice(0, CLIENT_NAME_MAX), plan: 'free' }, address, password);
  }

  /**
   * Creates the client through the gateway, then its user. The address is checked first so a
   * taken one costs no client; a race between two sign-ups leaves at most a client without a user.
   */
  async createClientUser(client: { name: string; plan?: PlanName; timezone?: string }, email: string, password: string): Promise<StoredUser> {
    const address = normaliseEmail(email);
    await this.requireFreeAddress(address);
    const passwordHash = await this.hasher.hash(password);
    const command: ClientCreateCommand = client;
    const { clientId } = await this.gateway.send<ClientCreated>(Patterns.gateway.clientCreate, command);
    return this.insertOrConflict({ email: address, passwordHash, role: 'client', clientId });
  }

  /** The `admin create` command: a dashboard administrator without a client of its own. */
  async createAdmin(command: AdminCreateCommand): Promise<AdminCreated> {
    const address = normaliseEmail(command.email);
    await this.requireFreeAddress(address);
    const user = await this.insertOrConflict({ email: address, passwordHash: await this.hasher.hash(command.password), role: 'admin', clientId: null });
    return { userId: user.id };
  }

  /**
   * The user these credentials belong to, or null; an unknown address takes as long as a wrong
   * password. A password hashed at another cost than DASHBOARD_PASSWORD_COST is hashed again at
   * that cost, so a changed cost reaches every user who signs in, and their checks take as long as
   * the decoy's.
   */
  async authenticate(email: string, password: string): Promise<StoredUser | null> {
    const user = await this.users.findByEmail(normaliseEmail(email));
    if (!user) return this.hasher.verifyNothing(password).then(() => null);
    if (!(await this.hasher.verify(password, user.passwordHash))) return null;
    if (!this.hasher.isOutdated(user.passwordHash)) return user;
    const passwordHash = await this.hasher.hash(password);
    return (await this.users.rehash(user.id, user.passwordHash, passwordHash)) ? { ...user, passwordHash } : user;
  }

  /**
   * Sets a new password when the current one is right (`unauthorized` otherwise, taking as long);
   * every session holding the old password's version is over from now on. A reset or another
   * change between the check and the write wins: this one is refused.
   */
  async changePassword(userId: number, currentPassword: string, newPassword: string): Promise<StoredUser> {
    const user = await this.users.findById(userId);
    if (!user || !(await this.hasher.verify(currentPassword, user.passwordHash))) throw new DomainError('unauthorized', 'the current password is wrong');
    const changed = await this.users.setPassword(userId, await this.hasher.hash(newPassword), user.passwordVersion);
    if (!changed) throw new DomainError('unauthorized', 'the password was changed meanwhile; sign in with the new one');
    return changed;
  }

  findByEmail(email: string): Promise<StoredUser | null> {
    return this.users.findByEmail(normaliseEmail(email));
  }

  find(id: number): Promise<StoredUser | null> {
    return this.users.findById(id);
  }

  private async requireFreeAddress(email: string): Promise<void> {
    if (await this.users.exists(email)) throw new ConflictError('a user with this email address exists already');
  }

  private async insertOrConflict(user: Parameters<UsersRepository['insert']>[0]): Promise<StoredUser> {
    const inserted = await this.users.insert(user);
    if (!inserted) throw new ConflictError('a user with this email address exists already');
    return inserted;
  }
}

export function sessionUserOf(user: StoredUser): SessionUser {
  return { id: user.id, email: user.email, role: user.role, clientId: user.clientId };
}
