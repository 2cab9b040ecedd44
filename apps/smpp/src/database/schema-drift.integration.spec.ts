import { schemaDriftOf } from '@smsq/testing';
import { describe, expect, it } from 'vitest';

describe('smpp schema.prisma and its migrations', () => {
  it('describe the same tables, columns, types, nullability and indexes', async () => {
    expect(await schemaDriftOf(new URL('../../prisma/', import.meta.url), 'smpp')).toEqual([]);
  });
});
