import { describe, expect, it } from 'vitest';
import { phoneSentNothing, refusedForVolume } from './nothing-sent.js';

describe(phoneSentNothing.name, () => {
  it.each([
    'Send result: RESULT_ERROR_NO_SERVICE (Failed because service is currently unavailable)',
    'Send result: RESULT_ERROR_RADIO_OFF (Failed because radio was explicitly turned off)',
    'Send result: RESULT_ERROR_NULL_PDU (Failed because no PDU provided)',
    'Send result: RESULT_ERROR_LIMIT_EXCEEDED (Failed because we reached the sending queue limit)',
    'Send result: RESULT_RIL_RADIO_NOT_AVAILABLE (The radio did not start or is resetting)',
    // Apps from v1.2.2 to v1.38 name the result without its description.
    'Send result: RESULT_ERROR_NO_SERVICE',
    '  send result: result_error_radio_off ',
    'TTL expired',
    "Can't send message: SIM 3 not found",
    "Can't send message: No SIMs found",
  ])('takes %j as the phone\'s word that nothing was sent', (error) => {
    expect(phoneSentNothing(error)).toBe(true);
  });

  it.each([
    'Send result: RESULT_ERROR_GENERIC_FAILURE (Generic failure cause)',
    'Send result: RESULT_NETWORK_REJECT (Failed because of network rejection)',
    'Send result: RESULT_ERROR_SHORT_CODE_NOT_ALLOWED (Failed because user denied the sending of this short code)',
    'Send result: RESULT_RIL_NETWORK_REJECT (The SMS request was rejected by the network)',
    'Send result: Unknown error code: 4.',
    'sendSMS: Invalid phone number',
    'Delivery result: 4',
    'Delivery result from SC +381600000000: 65',
    'the phone says RESULT_ERROR_NO_SERVICE happened after TTL expired',
    "Can't send message: Invalid Base64 data for message smsq-7",
    '',
    null,
    undefined,
  ])('keeps %j final', (error) => {
    expect(phoneSentNothing(error)).toBe(false);
  });
});

describe(refusedForVolume.name, () => {
  it.each([
    'Send result: RESULT_ERROR_LIMIT_EXCEEDED (Failed because we reached the sending queue limit)',
    'Send result: RESULT_ERROR_LIMIT_EXCEEDED',
    ' send result: result_error_limit_exceeded ',
    'Send result: RESULT_RIL_REQUEST_RATE_LIMITED (The radio denied the operation due to overly-frequent requests)',
  ])('takes %j as a refusal for volume, which is also a word that nothing was sent', (error) => {
    expect(refusedForVolume(error)).toBe(true);
    expect(phoneSentNothing(error)).toBe(true);
  });

  it.each([
    'Send result: RESULT_ERROR_NO_SERVICE (Failed because service is currently unavailable)',
    'Send result: RESULT_ERROR_GENERIC_FAILURE (Generic failure cause)',
    'TTL expired',
    'the phone says RESULT_ERROR_LIMIT_EXCEEDED',
    'Delivery result: RESULT_ERROR_LIMIT_EXCEEDED',
    '',
    null,
    undefined,
  ])('does not take %j for one', (error) => {
    expect(refusedForVolume(error)).toBe(false);
  });
});
