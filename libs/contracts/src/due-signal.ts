/**
 * The Redis pub/sub channel on which dispatch announces that tasks became due (created, returned
 * by a lease, a phone enabled), so long polls wake without polling the database. The message is
 * the phone or gateway id; waiters for unbound tokens wake on every message.
 */
export function dueSignalChannel(namespace: string): string {
  return `${namespace}:due`;
}
