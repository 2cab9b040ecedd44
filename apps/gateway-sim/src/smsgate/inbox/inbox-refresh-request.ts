import { SmsGateBadRequest } from '../errors/smsgate-errors.js';
import { GsonFields } from '../phone/gson-fields.js';
import { INCOMING_MESSAGE_TYPES, type IncomingMessageType } from './inbox-query.js';

const REQUEST_CLASS = 'me.capcom.smsgateway.modules.localserver.domain.InboxRefreshRequest';
const EXPORTABLE: readonly IncomingMessageType[] = ['SMS', 'MMS'];

/** A request to read the phone's SMS store again for a period (`since`..`until`, both included). */
export interface InboxRefreshRequest {
  since: Date;
  until: Date;
  messageTypes: IncomingMessageType[];
  /** Absent when the request did not say; the two routes default it differently. */
  triggerWebhooks: boolean | undefined;
}

/** Reads the body of `POST /messages/inbox/export` and `POST /inbox/refresh` with the app's checks and messages. */
export function readInboxRefreshRequest(body: unknown): InboxRefreshRequest {
  const fields = new GsonFields(body, REQUEST_CLASS);
  const since = fields.date('since');
  const until = fields.date('until');
  // Gson reads a type it does not know as null.
  const messageTypes = fields.stringList('messageTypes')?.map((type) => (type !== null && (INCOMING_MESSAGE_TYPES as readonly string[]).includes(type) ? type : 'null'));
  const triggerWebhooks = fields.boolean('triggerWebhooks');
  if (since === undefined) throw new SmsGateBadRequest('since is required');
  if (until === undefined) throw new SmsGateBadRequest('until is required');
  if (since.getTime() > until.getTime()) throw new SmsGateBadRequest('since must be before until');
  if (messageTypes !== undefined && messageTypes.length === 0) throw new SmsGateBadRequest('messageTypes must not be empty');
  const unsupported = [...new Set(messageTypes ?? [])].filter((type) => !(EXPORTABLE as readonly string[]).includes(type));
  if (unsupported.length > 0) throw new SmsGateBadRequest(`messageTypes contains unsupported values: ${unsupported.join(',')}`);
  return { since, until, messageTypes: (messageTypes as IncomingMessageType[] | undefined) ?? ['SMS'], triggerWebhooks };
}
