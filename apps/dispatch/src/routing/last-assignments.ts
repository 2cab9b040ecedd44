import { Prisma } from '../generated/prisma/client.js';

/**
 * The rows `a(id, position)` of phones assigned tasks in the order of `phoneIds`: each phone once,
 * at its last assignment, so `last_assigned_at = <clock> + position µs` leaves least-recently-used
 * routing in that order. Empty when there are none.
 */
export function lastAssignments(phoneIds: readonly number[]): { count: number; rows: Prisma.Sql } {
  const lastPosition = new Map(phoneIds.map((id, position) => [id, position]));
  const ids = [...lastPosition.keys()];
  return { count: ids.length, rows: Prisma.sql`unnest(${ids}::int[], ${ids.map((id) => lastPosition.get(id)!)}::int[]) AS a(id, position)` };
}
