import { createHash } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { compare, hash } from 'bcryptjs';
import { DashboardConfig } from '../config/dashboard-config.js';

/**
 * bcrypt reads only the first 72 bytes of its input, so the password is first reduced to the
 * base64 of its SHA-256 (44 characters): every character of a long passphrase counts.
 */
function prehash(password: string): string {
  return createHash('sha256').update(password, 'utf8').digest('base64');
}

@Injectable()
export class PasswordHasher {
  private decoy: Promise<string> | undefined;

  constructor(private readonly config: DashboardConfig) {}

  hash(password: string): Promise<string> {
    return hash(prehash(password), this.config.passwordCost);
  }

  verify(password: string, passwordHash: string): Promise<boolean> {
    return compare(prehash(password), passwordHash);
  }

  /** Whether a hash was made at another cost than the configured one (bcrypt's `$2b$12$…` carries it). */
  isOutdated(passwordHash: string): boolean {
    return Number(/^\$2[aby]\$(\d{2})\$/.exec(passwordHash)?.[1]) !== this.config.passwordCost;
  }

  /** Spends the time of a real check, so an unknown address cannot be told from a wrong password by timing. */
  async verifyNothing(password: string): Promise<false> {
    this.decoy ??= this.hash('no user has this password');
    await compare(prehash(password), await this.decoy);
    return false;
  }
}
