import { Logger } from '@nestjs/common';
import { describe, expect, it } from 'vitest';
import { OutboxRelayRounds, type OutboxEntry, type OutboxTransaction } from './outbox-relay-rounds.js';

/** An outbox of one table in memory: the first look answers from `due`, the transaction hands out its entries once each. */
function outboxOf(due: OutboxEntry[]) {
  const sent: bigint[] = [];
  let transactions = 0;
  const queue = [...due];
  const tx: OutboxTransaction = {
    $queryRawUnsafe: async <T>() => (queue.length ? [queue.shift()] : []) as T,
    $executeRawUnsafe: async () => 1,
  };
  const rounds = new OutboxRelayRounds(
    {
      table: '"test"."outbox"',
      database: { $queryRawUnsafe: async <T>() => (queue.length ? [{ now: new Date() }] : []) as T },
      transaction: async (work) => {
        transactions += 1;
        return work(tx);
      },
      send: async (entry) => void sent.push(entry.id),
    },
    new Logger('test'),
  );
  return { rounds, sent, transactions: () => transactions };
}

const entry = (id: bigint): OutboxEntry => ({ id, pattern: 'p', payload: {}, attempts: 0, nextAttemptAt: new Date(0) });

describe('OutboxRelayRounds', () => {
  it('opens no transaction when nothing is due', async () => {
    const outbox = outboxOf([]);
    expect(await outbox.rounds.relayOnce()).toEqual({ delivered: 0, failed: 0, interrupted: false });
    expect(outbox.transactions()).toBe(0);
  });

  it('sends what is due, one transaction per message and one more to find the end', async () => {
    const outbox = outboxOf([entry(1n), entry(2n)]);
    expect(await outbox.rounds.relayOnce()).toEqual({ delivered: 2, failed: 0, interrupted: false });
    expect(outbox.sent).toEqual([1n, 2n]);
    expect(outbox.transactions()).toBe(3);
  });
});
