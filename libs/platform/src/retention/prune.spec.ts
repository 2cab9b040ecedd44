import { describe, expect, it } from 'vitest';
import { pruneBatchSql, type Prune } from './prune.js';

const PUBLISHED: Prune = {
  table: 'dispatch.outbox_messages',
  what: 'published outbox messages',
  key: ['id'],
  where: 'pruned.published_at < $1',
  orderBy: 'pruned.published_at, pruned.id',
  keepS: 60,
};

describe(pruneBatchSql.name, () => {
  it('locks a bounded batch of the oldest prunable rows, skipping locked ones, and deletes exactly those', () => {
    const sql = pruneBatchSql(PUBLISHED).replace(/\s+/g, ' ');

    expect(sql).toContain('SELECT pruned."id" FROM "dispatch"."outbox_messages" AS pruned WHERE pruned.published_at < $1 ORDER BY pruned.published_at, pruned.id LIMIT $2 FOR UPDATE OF pruned SKIP LOCKED');
    expect(sql).toContain('DELETE FROM "dispatch"."outbox_messages" WHERE ("id") IN (SELECT "id" FROM doomed)');
  });

  it('picks rows by every column of a composite key', () => {
    const sql = pruneBatchSql({ ...PUBLISHED, table: 'gateway.idempotency_records', key: ['client_id', 'key'] });

    expect(sql).toContain('WHERE ("client_id", "key") IN (SELECT "client_id", "key" FROM doomed)');
  });

  it('refuses a table or key that is not a plain identifier', () => {
    expect(() => pruneBatchSql({ ...PUBLISHED, table: 'dispatch.outbox"; DROP TABLE x; --' })).toThrow(/not a plain SQL identifier/);
    expect(() => pruneBatchSql({ ...PUBLISHED, key: ['id) OR (1=1'] })).toThrow(/not a plain SQL identifier/);
  });
});
