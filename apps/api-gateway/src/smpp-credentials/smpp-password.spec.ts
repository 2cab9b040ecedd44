import { describe, expect, it } from 'vitest';
import { hashSmppPassword, issueSmppPassword, verifySmppPassword } from './smpp-password.js';

describe(issueSmppPassword.name, () => {
  it('issues 8 letters and digits, different each time', () => {
    const passwords = Array.from({ length: 200 }, issueSmppPassword);
    for (const password of passwords) expect(password).toMatch(/^[A-Za-z0-9]{8}$/);
    expect(new Set(passwords).size).toBe(200);
  });
});

describe(verifySmppPassword.name, () => {
  it('accepts the password hashed and nothing else, case and all', async () => {
    const hash = await hashSmppPassword('Ab3dEf7h');
    expect(await verifySmppPassword('Ab3dEf7h', hash)).toBe(true);
    expect(await verifySmppPassword('ab3dEf7h', hash)).toBe(false);
    expect(await verifySmppPassword('Ab3dEf7', hash)).toBe(false);
    expect(await verifySmppPassword('', hash)).toBe(false);
  });

  it('salts each hash, and matches nothing against a hash in another form', async () => {
    expect(await hashSmppPassword('Ab3dEf7h')).not.toBe(await hashSmppPassword('Ab3dEf7h'));
    for (const stored of ['', 'Ab3dEf7h', 'bcrypt$12$x', 'scrypt$16384$8$1$c2FsdA==', 'scrypt$0$8$1$c2FsdA==$aGFzaA==', 'scrypt$16384$8$1$c2FsdA==$aGFzaA==']) {
      expect(await verifySmppPassword('Ab3dEf7h', stored), stored).toBe(false);
    }
  });
});
