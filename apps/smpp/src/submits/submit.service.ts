import { Inject, Injectable, Logger } from '@nestjs/common';
import { domainErrorFrom, type SmppBindIdentity } from '@smsq/contracts';
import { TokenBuckets } from '@smsq/platform';
import { parseCreateTaskRequest, TaskCreator, type CreateTaskRequest } from '@smsq/task-intake';
import { DateTime } from 'luxon';
import { randomUUID } from 'node:crypto';
import { SmppConfig } from '../config/smpp-config.js';
import { CommandStatus } from '../protocol/index.js';
import { PhoneNumbers } from './phone-numbers.js';
import { refusalStatusOf } from './refusal-status.js';
import { SubmissionsRepository } from './submissions.repository.js';
import { wantsReceipts } from '../receipts/receipt-wishes.js';

/** A whole message as a bind submitted it (its parts joined), read from the submit_sm. */
export interface SubmitRequest {
  identity: SmppBindIdentity;
  sourceAddr: string;
  /** As given; with `internationalDestination` a number without `+` gets one. */
  destinationAddr: string;
  internationalDestination: boolean;
  text: string;
  registeredDelivery: number;
  priorityFlag: number;
  scheduledAt: Date | undefined;
  validUntil: Date | undefined;
}

export type SubmitOutcome = { ok: true; taskId: number } | { ok: false; status: number; detail: string };

/** The bucket of submits per second a credential shares over all its binds and replicas. */
export const SUBMIT_BUCKETS = Symbol('SUBMIT_BUCKETS');

/**
 * submit_sm is create-task: its fields become a create-task body, read by the API's own rules
 * and queued by the API's own creator (@smsq/task-intake, straight to dispatch in the batches the
 * API's creates ride), so credits, opt-outs, routing and every body rule are the API's. Here only
 * what SMPP adds: the credential's source addresses and rate, the sender's number pinning a
 * phone, SMPP's times and priority as create-task's fields.
 */
@Injectable()
export class SubmitService {
  private readonly logger = new Logger(SubmitService.name);

  constructor(
    private readonly config: SmppConfig,
    private readonly creator: TaskCreator,
    @Inject(SUBMIT_BUCKETS) private readonly buckets: TokenBuckets,
    private readonly phones: PhoneNumbers,
    private readonly submissions: SubmissionsRepository,
  ) {}

  async submit(request: SubmitRequest): Promise<SubmitOutcome> {
    const { identity } = request;
    if (identity.sourceAddresses.length > 0 && !identity.sourceAddresses.some((allowed) => sameAddress(allowed, request.sourceAddr))) {
      return { ok: false, status: CommandStatus.ESME_RINVSRCADR, detail: `source_addr ${request.sourceAddr} is not one this credential may send from` };
    }
    const decision = await this.buckets.take(`smpp:${identity.credentialId}`);
    if (!decision.allowed) return { ok: false, status: CommandStatus.ESME_RTHROTTLED, detail: `more than the credential's submits per second; retry in ${decision.retryAfterS} s` };
    const receipts = wantsReceipts(request.registeredDelivery);
    let taskId: number;
    try {
      const created = await this.creator.queue(identity.clientId, await this.createTaskRequest(request), randomUUID(), { receipts });
      taskId = created.id;
    } catch (error) {
      if (error instanceof SmppTimeError) return { ok: false, status: error.status, detail: error.message };
      const known = domainErrorFrom(error);
      return { ok: false, status: refusalStatusOf(error), detail: known ? `${known.code}: ${known.detail}` : (error as Error).message };
    }
    if (receipts) {
      // The receipt's addresses and text come from here; without this row it still goes out, with less said.
      await this.submissions
        .record({
          taskId,
          clientId: identity.clientId,
          credentialId: identity.credentialId,
          sourceAddr: request.sourceAddr,
          destinationAddr: request.destinationAddr,
          registeredDelivery: request.registeredDelivery,
          textHead: [...request.text].slice(0, 20).join(''),
        })
        .catch((error: Error) => this.logger.warn(`submission of task ${taskId} not recorded: ${error.message}`));
    }
    return { ok: true, taskId };
  }

  /** The submit as a create-task body, read by create-task's rules in the client's time zone. */
  private async createTaskRequest(request: SubmitRequest): Promise<CreateTaskRequest> {
    const recipient = request.internationalDestination && /^\d+$/.test(request.destinationAddr) ? `+${request.destinationAddr}` : request.destinationAddr;
    const body: Record<string, unknown> = { recipient, message: request.text };
    const phoneId = await this.phones.phoneOf(request.identity.clientId, request.sourceAddr);
    if (phoneId !== undefined) body['phone_id'] = phoneId;
    const now = new Date();
    if (request.scheduledAt && request.scheduledAt > now) {
      body['scheduled_at'] = DateTime.fromJSDate(request.scheduledAt).setZone(request.identity.timezone).toFormat('yyyy-MM-dd HH:mm:ss');
    }
    if (request.validUntil) {
      const due = request.scheduledAt && request.scheduledAt > now ? request.scheduledAt : now;
      const ttlS = Math.floor((request.validUntil.getTime() - due.getTime()) / 1000);
      if (ttlS < 1) throw new SmppTimeError(CommandStatus.ESME_RINVEXPIRY, 'validity_period ends before the message is due');
      body['ttl'] = ttlS;
    }
    // GSM's priority_flag: 0 is a normal message, 1–3 a priority one.
    if (request.priorityFlag > 0) body['priority'] = 'high';
    const { profile, defaultRegion } = this.config;
    return parseCreateTaskRequest(body, { profile, defaultRegion, timeZone: request.identity.timezone, now, templates: new Map() });
  }
}

class SmppTimeError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

function sameAddress(a: string, b: string): boolean {
  const plain = (address: string) => address.trim().replace(/^\+/, '').toLowerCase();
  return plain(a) === plain(b);
}
