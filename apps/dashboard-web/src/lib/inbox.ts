import type { InboxRow } from '@smsq/dashboard-api';

export interface InboxGroup {
  from: string;
  latestAt: string;
  /** Newest first. */
  messages: InboxRow[];
}

function time(iso: string): number {
  const ms = new Date(iso).getTime();
  return Number.isNaN(ms) ? 0 : ms;
}

/**
 * Groups replies by the sending number: one group per number, its messages newest first, and the
 * groups ordered by their newest message (the most recent conversation first). Ties keep input order.
 */
export function groupByNumber(rows: InboxRow[]): InboxGroup[] {
  const groups = new Map<string, InboxRow[]>();
  for (const row of rows) {
    const list = groups.get(row.from);
    if (list) list.push(row);
    else groups.set(row.from, [row]);
  }
  return [...groups.entries()]
    .map(([from, messages]) => {
      const sorted = messages
        .map((message, index) => ({ message, index }))
        .sort((a, b) => time(b.message.receivedAt) - time(a.message.receivedAt) || a.index - b.index)
        .map(({ message }) => message);
      return { from, latestAt: sorted[0].receivedAt, messages: sorted };
    })
    .sort((a, b) => time(b.latestAt) - time(a.latestAt));
}
