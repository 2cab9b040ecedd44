import { describe, expect, it } from 'vitest';
import { serviceRolePassword } from './service-role.js';

describe(serviceRolePassword.name, () => {
  const administrator = { verifier: 'SCRAM-SHA-256$4096:c2FsdA==$c3RvcmVk:c2VydmVy', systemIdentifier: '7710842981776783468' };
  const url = 'postgresql://postgres:admin-secret@db:5432/smsq';

  it('is the same at every start, and differs per role', () => {
    expect(serviceRolePassword(url, administrator, 'smsq_billing')).toBe(serviceRolePassword(url, administrator, 'smsq_billing'));
    expect(serviceRolePassword(url, administrator, 'smsq_billing')).not.toBe(serviceRolePassword(url, administrator, 'smsq_inbox'));
    expect(serviceRolePassword(url, administrator, 'smsq_billing')).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  it("cannot be computed from what any database user can read: it changes with the administrator's password and stored verifier", () => {
    const password = serviceRolePassword(url, administrator, 'smsq_billing');
    expect(serviceRolePassword('postgresql://postgres:other@db:5432/smsq', administrator, 'smsq_billing')).not.toBe(password);
    expect(serviceRolePassword(url, { ...administrator, verifier: 'SCRAM-SHA-256$4096:b3RoZXI=$c3RvcmVk:c2VydmVy' }, 'smsq_billing')).not.toBe(password);
    expect(serviceRolePassword('postgresql://postgres@db:5432/smsq', { ...administrator, verifier: null }, 'smsq_billing')).not.toBe(password);
  });
});
