import { Logger, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { metricsOf } from '../observability/metrics.js';
import type { Prune, PruneExecutor } from './prune.js';
import { RetentionPruner } from './retention-pruner.js';

const PUBLISHED: Prune = {
  table: 'test.outbox',
  what: 'published outbox rows',
  key: ['id'],
  where: 'pruned.published_at < $1',
  orderBy: 'pruned.published_at',
  keepS: 60,
};

/** A table of `backlog` prunable rows: each statement deletes up to its limit. */
class BacklogTable implements PruneExecutor {
  readonly calls: Array<{ cutoff: Date; limit: number }> = [];
  constructor(public backlog: number) {}

  async $executeRawUnsafe(_query: string, ...values: unknown[]): Promise<number> {
    const [cutoff, limit] = values as [Date, number];
    this.calls.push({ cutoff, limit });
    const deleted = Math.min(limit, this.backlog);
    this.backlog -= deleted;
    return deleted;
  }
}

describe(RetentionPruner.name, () => {
  beforeEach(() => {
    vi.spyOn(Logger.prototype, 'log').mockImplementation(() => undefined);
  });

  afterEach(() => {
    vi.restoreAllMocks();
    vi.useRealTimers();
  });

  it('deletes in batches until one comes back short, each with the cutoff of the prune’s period, and counts the rows by table', async () => {
    const table = new BacklogTable(25);
    const sut = new RetentionPruner('retention-spec', table, [PUBLISHED], 300, { batchRows: 10, maxBatches: 10 });
    const now = new Date('2026-11-26T06:00:00Z');
    const before = (await metricsOf('retention-spec').prunedRows.get()).values.find((value) => value.labels.table === 'test.outbox')?.value ?? 0;

    expect(await sut.pruneOnce(now)).toEqual({ 'test.outbox': 25 });

    expect(table.calls).toEqual([1, 2, 3].map(() => ({ cutoff: new Date('2026-11-26T05:59:00Z'), limit: 10 })));
    const after = (await metricsOf('retention-spec').prunedRows.get()).values.find((value) => value.labels.table === 'test.outbox')?.value;
    expect(after).toBe(before + 25);
  });

  it('stops after its bounded number of statements, leaving the rest for the next run', async () => {
    const table = new BacklogTable(100);
    const sut = new RetentionPruner('retention-spec', table, [PUBLISHED], 300, { batchRows: 10, maxBatches: 3 });

    expect(await sut.pruneOnce()).toEqual({ 'test.outbox': 30 });
    expect(table.backlog).toBe(70);
  });

  it('refuses an interval or period that is not a number of seconds, so a config without them never runs', () => {
    const table = new BacklogTable(0);
    expect(() => new RetentionPruner('retention-spec', table, [PUBLISHED], undefined as unknown as number)).toThrow(/interval must be a positive number of seconds, got undefined/);
    expect(() => new RetentionPruner('retention-spec', table, [PUBLISHED], 0)).toThrow(/interval must be a positive number/);
    expect(() => new RetentionPruner('retention-spec', table, [{ ...PUBLISHED, keepS: Number.NaN }], 300)).toThrow(/period must be a number of seconds, got NaN/);
    expect(() => new RetentionPruner('retention-spec', table, [{ ...PUBLISHED, keepS: -1 }], 300)).toThrow(/period must be a number of seconds/);
  });

  it('runs every interval once the application has started, as a Nest provider made by a factory, and stops with it', async () => {
    vi.useFakeTimers();
    const table = new BacklogTable(0);
    @Module({ providers: [{ provide: RetentionPruner, useFactory: () => new RetentionPruner('retention-spec', table, [PUBLISHED], 15) }] })
    class RetentionTestModule {}
    const app = await NestFactory.createApplicationContext(RetentionTestModule, { logger: false });
    await app.init();

    await vi.advanceTimersByTimeAsync(15_000 * 3 + 1);
    expect(table.calls).toHaveLength(3);

    await app.close();
    await vi.advanceTimersByTimeAsync(15_000 * 3);
    expect(table.calls).toHaveLength(3);
  });
});
