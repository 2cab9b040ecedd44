/**
 * The local `YYYY-MM-DD HH:MM:SS` of `now` stored with a resent task, read only while dispatch
 * knows no zone of the client (it never changed it). It takes the UTC offset the original task
 * shows (its local time minus its instant, to the minute) and applies it to now. Across a
 * daylight-saving change since the original this is an hour off in the label only; the task itself
 * is due at once either way.
 */
export function resendScheduledLocal(original: { scheduledAt: Date; scheduledLocal: string }, now: Date): string {
  const originalLocalAsUtc = Date.parse(`${original.scheduledLocal.replace(' ', 'T')}Z`);
  const offsetMinutes = Number.isNaN(originalLocalAsUtc) ? 0 : Math.round((originalLocalAsUtc - original.scheduledAt.getTime()) / 60_000);
  return new Date(now.getTime() + offsetMinutes * 60_000).toISOString().slice(0, 19).replace('T', ' ');
}
