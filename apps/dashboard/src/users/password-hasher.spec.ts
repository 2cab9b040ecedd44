import { describe, expect, it } from 'vitest';
import { testDashboardConfig } from '../testing/dashboard-harness.js';
import { PasswordHasher } from './password-hasher.js';

describe(PasswordHasher.name, () => {
  const hasherAt = (passwordCost: number) => new PasswordHasher(testDashboardConfig({ passwordCost }));

  it('hashes at the configured cost, salted, and verifies only the password hashed', async () => {
    const sut = hasherAt(5);

    const hashed = await sut.hash('correct horse battery staple');

    expect(hashed).toMatch(/^\$2b\$05\$/);
    expect(await sut.hash('correct horse battery staple')).not.toBe(hashed);
    expect(await sut.verify('correct horse battery staple', hashed)).toBe(true);
    expect(await sut.verify('correct horse battery stapler', hashed)).toBe(false);
  });

  it('keeps verifying hashes made at another cost, so changing DASHBOARD_PASSWORD_COST signs nobody out', async () => {
    const older = await hasherAt(4).hash('correct horse battery staple');

    expect(await hasherAt(6).verify('correct horse battery staple', older)).toBe(true);
  });

  it('counts every character of a long passphrase, beyond the 72 bytes bcrypt reads', async () => {
    const sut = hasherAt(4);
    const long = 'x'.repeat(80);

    expect(await sut.verify(`${long}a`, await sut.hash(`${long}b`))).toBe(false);
  });

  it('tells a hash made at another cost, to be made again at the configured one', async () => {
    const sut = hasherAt(5);

    expect(sut.isOutdated(await hasherAt(4).hash('x'))).toBe(true);
    expect(sut.isOutdated(await sut.hash('x'))).toBe(false);
    expect(sut.isOutdated('not a bcrypt hash')).toBe(true);
  });

  it('answers false for an unknown user after a check of its own', async () => {
    expect(await hasherAt(4).verifyNothing('anything')).toBe(false);
  });
});
