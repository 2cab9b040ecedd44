import { describe, expect, it } from 'vitest';
import { hashSecret, isWellFormedSecret, issueSecret } from './secret.js';

describe(issueSecret.name, () => {
  it('issues recognisable, checksummed secrets whose hash and prefix are what is stored', () => {
    const sut = issueSecret('key');
    expect(sut.raw).toMatch(/^smsq_key_[0-9A-Za-z]{38}$/);
    expect(sut.prefix).toBe(sut.raw.slice(0, 13));
    expect(sut.hash).toBe(hashSecret(sut.raw));
    expect(sut.hash).toMatch(/^[0-9a-f]{64}$/);
    expect(isWellFormedSecret(sut.raw, 'key')).toBe(true);
  });

  it('never issues the same secret twice', () => {
    const raws = new Set(Array.from({ length: 1000 }, () => issueSecret('wkr').raw));
    expect(raws.size).toBe(1000);
  });
});

describe(isWellFormedSecret.name, () => {
  it('refuses a secret of the other kind, a changed character and a wrong length', () => {
    const key = issueSecret('key').raw;
    expect(isWellFormedSecret(key, 'wkr')).toBe(false);
    const changed = key.slice(0, 20) + (key[20] === 'a' ? 'b' : 'a') + key.slice(21);
    expect(isWellFormedSecret(changed, 'key')).toBe(false);
    expect(isWellFormedSecret(key + 'x', 'key')).toBe(false);
    expect(isWellFormedSecret('', 'key')).toBe(false);
  });
});
