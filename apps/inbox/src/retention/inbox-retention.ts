import type { Prune } from '@smsq/platform';
import type { InboxConfig } from '../config/inbox-config.js';

const DAY_S = 86_400;

/**
 * What inbox deletes once kept long enough (docs/decisions.md, "Retention"): published outbox
 * events, and replies only when SMSQ_TASK_RETENTION_DAYS is set, since they are the clients' history.
 */
export function inboxPrunes(config: Pick<InboxConfig, 'outboxRetentionS' | 'messageRetentionDays'>): Prune[] {
  const prunes: Prune[] = [
    {
      table: 'inbox.outbox_events',
      what: 'published outbox events',
      key: ['id'],
      where: 'pruned.published_at < $1',
      orderBy: 'pruned.published_at, pruned.id',
      keepS: config.outboxRetentionS,
    },
  ];
  if (config.messageRetentionDays !== undefined) {
    prunes.push({
      table: 'inbox.messages',
      what: 'replies',
      key: ['id'],
      where: 'pruned.received_at < $1',
      orderBy: 'pruned.received_at',
      keepS: config.messageRetentionDays * DAY_S,
    });
  }
  return prunes;
}
