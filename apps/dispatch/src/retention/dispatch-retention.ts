import { MAX_STICKY_DAYS } from '@smsq/contracts';
import type { Prune } from '@smsq/platform';
import type { DispatchConfig } from '../config/dispatch-config.js';

const DAY_S = 86_400;

/** A task no pending webhook delivery still renders its body from (a delivery fixes its body at its first attempt). */
const NO_PENDING_DELIVERY = `NOT EXISTS (SELECT 1 FROM "dispatch"."webhook_deliveries" d WHERE d.task_id = pruned.id AND d.status = 'pending')`;

/**
 * What dispatch deletes once kept long enough (docs/decisions.md, "Retention"). Pending outbox
 * messages and pending webhook deliveries are never pruned; tasks only when
 * SMSQ_TASK_RETENTION_DAYS is set, since they are the clients' history.
 */
export function dispatchPrunes(config: Pick<DispatchConfig, 'outboxRetentionS' | 'webhookRetentionS' | 'taskRetentionDays'>): Prune[] {
  const prunes: Prune[] = [
    {
      table: 'dispatch.outbox_messages',
      what: 'published outbox messages',
      key: ['id'],
      where: 'pruned.published_at < $1',
      orderBy: 'pruned.published_at, pruned.id',
      keepS: config.outboxRetentionS,
    },
    // A finished delivery's next_attempt_at is when it finished (delivered, or failed for good): kept from then, by the (status, next_attempt_at) index.
    ...(['delivered', 'failed'] as const).map((status) => ({
      table: 'dispatch.webhook_deliveries',
      what: `${status} webhook deliveries`,
      key: ['id'],
      where: `pruned.status = '${status}' AND pruned.next_attempt_at < $1`,
      orderBy: 'pruned.next_attempt_at',
      keepS: config.webhookRetentionS,
    })),
    // A month's recipients count for its cap until the month is over; kept a month longer for the views.
    {
      table: 'dispatch.phone_recipients',
      what: 'recipients of past months',
      key: ['phone_id', 'month', 'number'],
      where: 'pruned.month < $1',
      orderBy: 'pruned.month',
      keepS: 62 * DAY_S,
    },
    // No client keeps a recipient on its phone longer than this after its last task.
    {
      table: 'dispatch.sticky_recipients',
      what: 'sticky recipients unused for longer than any client keeps them',
      key: ['client_id', 'number'],
      where: 'pruned.last_used_at < $1',
      orderBy: 'pruned.last_used_at',
      keepS: MAX_STICKY_DAYS * DAY_S,
    },
  ];
  if (config.taskRetentionDays !== undefined) {
    const keepS = config.taskRetentionDays * DAY_S;
    prunes.push(
      {
        table: 'dispatch.tasks',
        what: 'sent tasks',
        key: ['id'],
        // A delivery report may come after the send: the task is kept from the later of the two.
        where: `pruned.status = 'sent' AND pruned.sent_at < $1 AND (pruned.delivered_at IS NULL OR pruned.delivered_at < $1) AND ${NO_PENDING_DELIVERY}`,
        orderBy: 'pruned.sent_at',
        keepS,
      },
      {
        table: 'dispatch.tasks',
        what: 'failed tasks',
        key: ['id'],
        where: `pruned.status = 'failed' AND pruned.failed_at < $1 AND ${NO_PENDING_DELIVERY}`,
        orderBy: 'pruned.failed_at',
        keepS,
      },
    );
  }
  return prunes;
}
