/**
 * Which of the app's failures are its own word that the SMS never left the phone, so smsq may hand
 * the task to another phone (`retry`). Read in capcom6/android-sms-gateway, MessagesService.kt:
 * - `sendMessage`: `"TTL expired"` when the message's ttl passed in the queue (never sent), and
 *   `"Can't send message: " + e.message` when `sendSMS` threw before handing anything to Android,
 *   e.g. `SIM 3 not found`, `No SIMs found`;
 * - `processStateIntent`: `"Send result: " + resultToErrorMessage(resultCode)` for the radio's
 *   answer, which names Android's SmsManager constant, `RESULT_ERROR_NO_SERVICE (Failed because
 *   service is currently unavailable)` since v1.39, the bare name from v1.2.2 to v1.38.
 * Every other failure stays final: a generic failure, a network rejection, an invalid number or
 * SMS, a refused short code, a failed delivery report (`Delivery result…`), anything unknown.
 *
 * Of those nothing-sent results, two are a refusal for volume (`carrier_volume`: smsq pauses the
 * phone): `RESULT_ERROR_LIMIT_EXCEEDED`, Android's own limit on SMS sent (its sending queue, or the
 * user refusing its "this app sends many SMS" prompt), and `RESULT_RIL_REQUEST_RATE_LIMITED`, the
 * radio refusing overly frequent requests. The app reports them as a recipient's `Failed` with
 * `error` "Send result: RESULT_ERROR_LIMIT_EXCEEDED (Failed because we reached the sending queue
 * limit)" (processStateIntent, resultToErrorMessage; the bare name before v1.39).
 */

/** SmsManager results that say the radio never took the SMS: the phone could not send, another phone may. */
const NOTHING_SENT_RESULTS: ReadonlySet<string> = new Set([
  'RESULT_ERROR_NO_SERVICE',
  'RESULT_ERROR_RADIO_OFF',
  'RESULT_ERROR_NULL_PDU',
  'RESULT_ERROR_LIMIT_EXCEEDED',
  'RESULT_RADIO_NOT_AVAILABLE',
  'RESULT_RIL_RADIO_NOT_AVAILABLE',
  'RESULT_RIL_NETWORK_NOT_READY',
  'RESULT_RIL_INVALID_MODEM_STATE',
  'RESULT_RIL_SIM_ABSENT',
  'RESULT_RIL_REQUEST_RATE_LIMITED',
  'RESULT_RIL_BLOCKED_DUE_TO_CALL',
  'RESULT_RIL_SIMULTANEOUS_SMS_AND_CALL_NOT_ALLOWED',
  'RESULT_SMS_BLOCKED_DURING_EMERGENCY',
]);

/** SmsManager results that refuse the send for volume: the phone should pause, not only this SMS move. */
const VOLUME_RESULTS: ReadonlySet<string> = new Set(['RESULT_ERROR_LIMIT_EXCEEDED', 'RESULT_RIL_REQUEST_RATE_LIMITED']);

/** The app's own failures before anything reached the radio. */
const NOTHING_SENT_TEXTS: readonly RegExp[] = [/^ttl expired\b/i, /^can't send message: (sim \d+ not found|no sims found)\b/i];

/** Whether a Failed recipient's `error` is the app's word that nothing was sent. */
export function phoneSentNothing(error: string | null | undefined): boolean {
  const result = sendResultOf(error);
  if (result !== undefined) return NOTHING_SENT_RESULTS.has(result);
  return NOTHING_SENT_TEXTS.some((pattern) => pattern.test((error ?? '').trim()));
}

/** Whether a Failed recipient's `error` is Android's or the radio's refusal for volume (nothing was sent). */
export function refusedForVolume(error: string | null | undefined): boolean {
  const result = sendResultOf(error);
  return result !== undefined && VOLUME_RESULTS.has(result);
}

/** `RESULT_ERROR_NO_SERVICE` from "Send result: RESULT_ERROR_NO_SERVICE (…)"; undefined for any other text. */
function sendResultOf(error: string | null | undefined): string | undefined {
  return /^send result:\s*(RESULT_[A-Z_]+)\b/i.exec((error ?? '').trim())?.[1]?.toUpperCase();
}
