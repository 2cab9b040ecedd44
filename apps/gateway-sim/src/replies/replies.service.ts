import { randomUUID } from 'node:crypto';
import { Injectable, Logger } from '@nestjs/common';
import { InvalidRequestError } from '@smsq/contracts';
import { GatewaySimConfig } from '../config/gateway-sim-config.js';
import type { ReplyRequest } from './reply-request.js';

/** smsq's answer, passed back as it came. */
export interface ForwardedAnswer {
  status: number;
  contentType: string;
  body: string;
}

const FORWARD_TIMEOUT_MS = 10_000;

/**
 * Delivers received SMS to smsq as the phone app would: `POST /smsapi/inbound` with the worker
 * token. Each reply gets a fresh `external_id`, so smsq stores every one (none is a duplicate).
 */
@Injectable()
export class RepliesService {
  private readonly logger = new Logger(RepliesService.name);

  constructor(private readonly config: GatewaySimConfig) {}

  async forward(reply: ReplyRequest): Promise<ForwardedAnswer> {
    const token = this.config.workerToken;
    if (token === undefined) throw new InvalidRequestError('GATEWAY_SIM_WORKER_TOKEN is not set, so the simulator cannot post replies to smsq; start it with a worker token');
    const body = { messages: [{ from: reply.from, message: reply.message, received_at: new Date().toISOString(), external_id: randomUUID() }] };
    try {
      const response = await fetch(`${this.config.smsqBaseUrl}/smsapi/inbound`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json', 'x-worker-token': token },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(FORWARD_TIMEOUT_MS),
      });
      const answer = { status: response.status, contentType: response.headers.get('content-type') ?? 'application/json', body: await response.text() };
      this.logger.log(`reply from ${reply.from} forwarded to smsq: ${answer.status}`);
      return answer;
    } catch (error) {
      const reason = describeFailure(error);
      this.logger.warn(`reply from ${reply.from} not forwarded: smsq at ${this.config.smsqBaseUrl} unreachable (${reason})`);
      return { status: 502, contentType: 'application/json; charset=utf-8', body: JSON.stringify({ error: 'smsq_unreachable', detail: `smsq at ${this.config.smsqBaseUrl} could not be reached: ${reason}` }) };
    }
  }
}

/** Why no answer came: the network error's code (`ECONNREFUSED`…) when it has one. */
function describeFailure(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  if (error.name === 'TimeoutError') return `no answer within ${FORWARD_TIMEOUT_MS} ms`;
  const cause = error.cause as { code?: unknown; message?: unknown } | undefined;
  if (typeof cause?.code === 'string') return cause.code;
  return typeof cause?.message === 'string' && cause.message !== '' ? cause.message : error.message;
}
