import { describe, expect, it } from 'vitest';
import { isSeenRecently, scopeOfBoundToken, scopeOfUnboundToken, type ClaimingPhone } from './claim-scope.js';

function phone(overrides: Partial<ClaimingPhone> = {}): ClaimingPhone {
  return { id: 7, kind: 'own', active: true, lastSeenAt: null, ...overrides };
}

function codeOf(run: () => unknown): string | undefined {
  try {
    run();
    return undefined;
  } catch (error) {
    return (error as { code?: string }).code;
  }
}

describe('claim scope', () => {
  it('refuses a Profile A token that belongs to no phone', () => {
    expect(codeOf(() => scopeOfUnboundToken('A'))).toBe('unauthorized');
  });

  it('lets an unbound Profile B token claim from every gateway', () => {
    expect(scopeOfUnboundToken('B')).toEqual({ phoneId: null });
  });

  it('limits a bound token to its own phone or gateway', () => {
    expect(scopeOfBoundToken('A', phone({ id: 7 }))).toEqual({ phoneId: 7 });
    expect(scopeOfBoundToken('B', phone({ id: 9, kind: 'gateway' }))).toEqual({ phoneId: 9 });
  });

  it('answers phone_disabled for a disabled phone or gateway', () => {
    expect(codeOf(() => scopeOfBoundToken('A', phone({ active: false })))).toBe('phone_disabled');
    expect(codeOf(() => scopeOfBoundToken('B', phone({ kind: 'gateway', active: false })))).toBe('phone_disabled');
  });

  it('treats a phone that does not exist, or is of the other profile’s kind, as an invalid token', () => {
    expect(codeOf(() => scopeOfBoundToken('A', null))).toBe('unauthorized');
    expect(codeOf(() => scopeOfBoundToken('A', phone({ kind: 'gateway' })))).toBe('unauthorized');
    expect(codeOf(() => scopeOfBoundToken('B', phone({ kind: 'own' })))).toBe('unauthorized');
  });

  it('records a poll only when the last one recorded is ten seconds old or more', () => {
    const now = new Date('2026-11-22T10:00:00.000Z');

    expect(isSeenRecently(phone({ lastSeenAt: null }), now)).toBe(false);
    expect(isSeenRecently(phone({ lastSeenAt: new Date('2026-11-22T09:59:50.001Z') }), now)).toBe(true);
    expect(isSeenRecently(phone({ lastSeenAt: new Date('2026-11-22T09:59:50.000Z') }), now)).toBe(false);
  });
});
