/**
 * How a send fails when it fails, each with the app's words (MessagesService.kt, resultToErrorMessage):
 * `generic-failure` is final; the others are the phone's own word that nothing was sent (no
 * service, radio off, no PDU: the radio refused; `limit-exceeded`: Android refused for volume, its
 * limit on SMS sent; `ttl-expired`: the queue gave up on it, never sent).
 */
export const SEND_FAILURE_KINDS = ['generic-failure', 'no-service', 'radio-off', 'null-pdu', 'limit-exceeded', 'ttl-expired'] as const;
export type SendFailureKind = (typeof SEND_FAILURE_KINDS)[number];

export const SEND_FAILURE_TEXTS: Record<Exclude<SendFailureKind, 'ttl-expired'>, string> = {
  'generic-failure': 'Send result: RESULT_ERROR_GENERIC_FAILURE (Generic failure cause)',
  'no-service': 'Send result: RESULT_ERROR_NO_SERVICE (Failed because service is currently unavailable)',
  'radio-off': 'Send result: RESULT_ERROR_RADIO_OFF (Failed because radio was explicitly turned off)',
  'null-pdu': 'Send result: RESULT_ERROR_NULL_PDU (Failed because no PDU provided)',
  'limit-exceeded': 'Send result: RESULT_ERROR_LIMIT_EXCEEDED (Failed because we reached the sending queue limit)',
};
