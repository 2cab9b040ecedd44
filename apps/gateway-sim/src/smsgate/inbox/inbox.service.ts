import { Injectable, Logger } from '@nestjs/common';
import { SmsGateConfig } from '../smsgate-config.js';
import { SmsEvents } from '../webhooks/sms-events.js';
import type { InboxQuery } from './inbox-query.js';
import type { InboxRefreshRequest } from './inbox-refresh-request.js';
import { inboxId, type ReceivedSms } from './received-sms.js';

/** A received SMS as the app's inbox lists it (`GET /inbox`). */
export interface InboxEntry {
  id: string;
  sms: ReceivedSms;
}

/**
 * The phone's received SMS, in two places as on the phone: Android's SMS store, which has every
 * SMS that arrived, and the app's inbox, which has those the app processed (and sent `sms:received`
 * for). An SMS the app missed (it was not running) is only in the store until an export or refresh
 * covering its date processes it. Since app 1.65.2 an export skips SMS the app already processed.
 */
@Injectable()
export class InboxService {
  private readonly logger = new Logger(InboxService.name);
  private readonly smsStore: ReceivedSms[] = [];
  private readonly inbox = new Map<string, InboxEntry>();

  constructor(
    private readonly config: SmsGateConfig,
    private readonly events: SmsEvents,
  ) {}

  /** An SMS arrives; the app processes it at once unless it `missed` it. */
  receive(sms: ReceivedSms, missed: boolean): void {
    this.smsStore.push(sms);
    this.logger.log(`SMS from ${sms.sender} received${missed ? ', unseen by the app' : ''}`);
    if (!missed) this.process(sms, true);
  }

  /** Processes every stored SMS of the period again, oldest first (the app's export and refresh). */
  export(request: InboxRefreshRequest, triggerWebhooks: boolean): void {
    if (!request.messageTypes.includes('SMS')) return;
    this.smsStore
      .filter((sms) => sms.receivedAt.getTime() >= request.since.getTime() && sms.receivedAt.getTime() <= request.until.getTime())
      .sort((a, b) => a.receivedAt.getTime() - b.receivedAt.getTime())
      .forEach((sms) => this.process(sms, triggerWebhooks));
  }

  /** Newest first, with the total before paging (the app's X-Total-Count). */
  select(query: InboxQuery): { total: number; page: InboxEntry[] } {
    const matching = [...this.inbox.values()]
      .filter(({ sms }) => (query.type === undefined || query.type === 'SMS') && sms.receivedAt.getTime() >= query.from.getTime() && sms.receivedAt.getTime() <= query.to.getTime())
      .sort((a, b) => b.sms.receivedAt.getTime() - a.sms.receivedAt.getTime() || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0));
    return { total: matching.length, page: matching.slice(query.offset, query.offset + query.limit) };
  }

  private process(sms: ReceivedSms, triggerWebhooks: boolean): void {
    const id = inboxId(sms);
    if (this.inbox.has(id) && !this.config.legacyExport) return;
    this.inbox.set(id, { id, sms });
    if (triggerWebhooks) this.events.smsReceived(sms);
  }
}
