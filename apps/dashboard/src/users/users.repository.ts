import { Injectable } from '@nestjs/common';
import { DashboardDatabase } from '../database/dashboard-database.js';
import { Prisma, type User, type UserRole } from '../generated/prisma/client.js';

export type StoredUser = User;

export interface NewUser {
  email: string;
  passwordHash: string;
  role: UserRole;
  clientId: number | null;
}

@Injectable()
export class UsersRepository {
  constructor(private readonly database: DashboardDatabase) {}

  findById(id: number): Promise<StoredUser | null> {
    return this.database.user.findUnique({ where: { id } });
  }

  findByEmail(email: string): Promise<StoredUser | null> {
    return this.database.user.findUnique({ where: { email } });
  }

  async exists(email: string): Promise<boolean> {
    return (await this.database.user.count({ where: { email } })) > 0;
  }

  /** The new user, or null when the address is taken (also when a concurrent insert took it first). */
  async insert(user: NewUser): Promise<StoredUser | null> {
    try {
      return await this.database.user.create({ data: user });
    } catch (error) {
      if (error instanceof Prisma.PrismaClientKnownRequestError && error.code === 'P2002') return null;
      throw error;
    }
  }

  /**
   * A changed password, its version one higher in the same statement, so no session holds the new
   * version with the old password; a reset link asked for before the change is void after it.
   * Only while the password is still the version that was checked: null when another change or a
   * reset came first.
   */
  async setPassword(id: number, passwordHash: string, checkedVersion: number): Promise<StoredUser | null> {
    try {
      const [user] = await this.database.$transaction([
        this.database.user.update({ where: { id, passwordVersion: checkedVersion }, data: newPasswordOf(passwordHash) }),
        this.database.passwordReset.deleteMany({ where: { userId: id } }),
      ]);
      return user;
    } catch (error) {
      if (error instanceof Prisma.PrismaClientKnownRequestError && error.code === 'P2025') return null;
      throw error;
    }
  }

  /**
   * The same password hashed again (at another cost): the version stays, so no session ends. Only
   * while the stored hash is still the one checked; whether it was replaced.
   */
  async rehash(id: number, checkedHash: string, passwordHash: string): Promise<boolean> {
    return (await this.database.user.updateMany({ where: { id, passwordHash: checkedHash }, data: { passwordHash } })).count === 1;
  }
}

/** What every write of a new password sets: the hash and the next version, together. */
export function newPasswordOf(passwordHash: string): Prisma.UserUpdateInput {
  return { passwordHash, passwordVersion: { increment: 1 } };
}
