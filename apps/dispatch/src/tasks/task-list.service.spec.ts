import { describe, expect, it } from 'vitest';
import { instantOf, recipientPartOf } from './task-list.service.js';

describe('task list filters', () => {
  it.each([
    ['+381 60 123', '+38160123'],
    ['(060) 12-34.5/6', '060123456'],
    ['', undefined],
    ['   ', undefined],
    ['%', null],
    ['12_3', null],
    ['1+2', null],
    ['\\', null],
  ])('reads the recipient search %j as %j', (search, expected) => {
    expect(recipientPartOf(search)).toBe(expected);
  });

  it('reads instants with or without an offset, a bare date as its UTC midnight', () => {
    expect(instantOf('2026-11-01T10:00:00Z', 'from')?.toISOString()).toBe('2026-11-01T10:00:00.000Z');
    expect(instantOf('2026-11-01T12:00:00+02:00', 'from')?.toISOString()).toBe('2026-11-01T10:00:00.000Z');
    expect(instantOf('2026-11-01T10:00:00', 'from')?.toISOString()).toBe('2026-11-01T10:00:00.000Z');
    expect(instantOf('2026-11-01', 'from')?.toISOString()).toBe('2026-11-01T00:00:00.000Z');
    expect(instantOf(undefined, 'from')).toBeUndefined();
  });

  it('refuses an ISO form it cannot read as an instant', () => {
    expect(() => instantOf('2026-W44', 'to')).toThrowError(expect.objectContaining({ code: 'invalid_request' }) as Error);
  });
});
