import type { Prune } from '@smsq/platform';
import type { SmppConfig } from '../config/smpp-config.js';

const DAY_S = 86_400;

/**
 * What the SMPP service deletes once kept long enough: receipts no receiver took within
 * SMSQ_SMPP_KEEP_S, and submissions once their tasks are gone (SMSQ_TASK_RETENTION_DAYS).
 */
export function smppPrunes(config: Pick<SmppConfig, 'keepS' | 'submissionRetentionDays'>): Prune[] {
  const prunes: Prune[] = [
    { table: 'smpp.receipts', what: 'delivery receipts no receiver bound for', key: ['task_id', 'event'], where: 'pruned.created_at < $1', orderBy: 'pruned.created_at', keepS: config.keepS },
  ];
  if (config.submissionRetentionDays !== undefined) {
    prunes.push({ table: 'smpp.submissions', what: 'submissions', key: ['task_id'], where: 'pruned.submitted_at < $1', orderBy: 'pruned.submitted_at', keepS: config.submissionRetentionDays * DAY_S });
  }
  return prunes;
}
