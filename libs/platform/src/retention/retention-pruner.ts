import { Logger, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { metricsOf } from '../observability/metrics.js';
import { RepeatingJob } from '../scheduling/repeating-job.js';
import { pruneBatchSql, type Prune, type PruneExecutor } from './prune.js';

/** Rows one statement deletes: its locks and its WAL stay small. */
export const PRUNE_BATCH_ROWS = 1_000;
/** Statements one run may take per prune; a larger backlog continues at the next run. */
export const PRUNE_MAX_BATCHES = 20;

export interface PruneLimits {
  batchRows: number;
  maxBatches: number;
}

/**
 * Deletes what a service keeps only for a while, every `intervalS`: each prune in bounded
 * batches, each batch its own short statement. Replicas run the same prunes at once without
 * blocking each other or deleting a row twice (SKIP LOCKED).
 */
export class RetentionPruner implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(RetentionPruner.name);
  private readonly job: RepeatingJob;
  private readonly statements: ReadonlyArray<{ prune: Prune; sql: string }>;
  private readonly prunedRows;

  constructor(
    service: string,
    private readonly db: PruneExecutor,
    prunes: readonly Prune[],
    intervalS: number,
    private readonly limits: PruneLimits = { batchRows: PRUNE_BATCH_ROWS, maxBatches: PRUNE_MAX_BATCHES },
  ) {
    // A period or interval that is not a positive number would prune everything, or spin: refused, not run.
    if (!(intervalS > 0 && Number.isFinite(intervalS))) throw new Error(`${service} retention: the interval must be a positive number of seconds, got ${intervalS}`);
    for (const prune of prunes) {
      if (!(prune.keepS >= 0 && Number.isFinite(prune.keepS))) throw new Error(`${service} retention of ${prune.what}: the period must be a number of seconds, got ${prune.keepS}`);
    }
    this.statements = prunes.map((prune) => ({ prune, sql: pruneBatchSql(prune) }));
    this.prunedRows = metricsOf(service).prunedRows;
    for (const { prune } of this.statements) this.prunedRows.inc({ table: prune.table }, 0);
    this.job = new RepeatingJob('retention', intervalS * 1_000, () => this.pruneOnce(), this.logger);
  }

  onApplicationBootstrap(): void {
    this.job.start();
  }

  async onModuleDestroy(): Promise<void> {
    await this.job.stop();
  }

  /** One run of every prune; answers how many rows each deleted, by table. */
  async pruneOnce(now = new Date()): Promise<Record<string, number>> {
    const pruned: Record<string, number> = {};
    for (const { prune, sql } of this.statements) {
      const cutoff = new Date(now.getTime() - prune.keepS * 1_000);
      let deleted = 0;
      for (let batch = 0; batch < this.limits.maxBatches; batch++) {
        const rows = await this.db.$executeRawUnsafe(sql, cutoff, this.limits.batchRows);
        deleted += rows;
        this.prunedRows.inc({ table: prune.table }, rows);
        if (rows < this.limits.batchRows) break;
      }
      pruned[prune.table] = (pruned[prune.table] ?? 0) + deleted;
      if (deleted > 0) this.logger.log(`retention: ${deleted} ${prune.what} pruned`);
    }
    return pruned;
  }
}
