/**
 * One kind of row a service deletes once it has been kept long enough. The SQL is the service's
 * own (its repository layer declares it); the batching, locking and scheduling are the pruner's.
 */
export interface Prune {
  /** The schema-qualified table, as the metric labels it: `dispatch.outbox_messages`. */
  table: string;
  /** What is pruned, for the log: `published outbox messages`. */
  what: string;
  /** The columns that pick a row out: its primary key. */
  key: readonly string[];
  /**
   * The condition that makes a row prunable, on the row named `pruned`, where `$1` is the cutoff
   * (now minus `keepS`): e.g. `pruned.published_at < $1`.
   */
  where: string;
  /** Oldest first, in the order of an index that serves `where`, so that a batch never scans the table. */
  orderBy: string;
  /** How long a row is kept once it could be pruned, in seconds. */
  keepS: number;
}

/** What the pruner needs of a service's Prisma client. */
export interface PruneExecutor {
  $executeRawUnsafe(query: string, ...values: unknown[]): Promise<number>;
}

const IDENTIFIER = /^[a-z_][a-z0-9_]*$/;

function quoted(name: string): string {
  if (!IDENTIFIER.test(name)) throw new Error(`not a plain SQL identifier: ${JSON.stringify(name)}`);
  return `"${name}"`;
}

/** `dispatch.outbox_messages` as `"dispatch"."outbox_messages"`. */
function qualified(table: string): string {
  return table.split('.').map(quoted).join('.');
}

/**
 * One batch: up to `$2` prunable rows, oldest first, locked with SKIP LOCKED and deleted in one
 * statement. A row another transaction holds (a relay publishing it, another replica's batch) is
 * passed over, never waited for; a row changed meanwhile is checked again under its lock, so one
 * that stopped matching (a delivery due again) is left alone.
 */
export function pruneBatchSql(prune: Prune): string {
  const table = qualified(prune.table);
  const key = prune.key.map(quoted).join(', ');
  const pickedKey = prune.key.map((column) => `pruned.${quoted(column)}`).join(', ');
  return `WITH doomed AS MATERIALIZED (
  SELECT ${pickedKey} FROM ${table} AS pruned
   WHERE ${prune.where}
   ORDER BY ${prune.orderBy}
   LIMIT $2
     FOR UPDATE OF pruned SKIP LOCKED
)
DELETE FROM ${table} WHERE (${key}) IN (SELECT ${key} FROM doomed)`;
}
