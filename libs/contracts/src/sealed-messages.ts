import { maxSealedLength } from '@smsq/message-crypto';
import { MESSAGE_MAX_CODE_POINTS } from './gateway/public-limits.js';

/** The longest a reply's text may be, in code points. */
export const REPLY_MAX_CODE_POINTS = 4000;

/** The longest sealed message (docs/guide/encryption.md) an encrypted create may carry: what the longest message seals to. */
export const MAX_SEALED_MESSAGE_LENGTH = maxSealedLength(MESSAGE_MAX_CODE_POINTS);

/** The longest sealed reply a worker may post: what the longest reply seals to. */
export const MAX_SEALED_REPLY_LENGTH = maxSealedLength(REPLY_MAX_CODE_POINTS);

/** What an encrypted reply's worker found its text to be (smsq cannot read it): a keyword of the client's, each way. */
export const REPLY_KEYWORDS = ['opt_out', 'opt_in'] as const;
export type ReplyKeyword = (typeof REPLY_KEYWORDS)[number];
