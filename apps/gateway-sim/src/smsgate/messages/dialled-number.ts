/**
 * The number the phone dials for a recipient, or undefined when the app would refuse it. The app
 * checks numbers with libphonenumber; the stand-in takes 8 to 15 digits, with an optional leading
 * `+`, once spaces, dashes, dots and brackets are removed. With `skipPhoneValidation` the app only
 * keeps digits, `+`, `*` and `#`.
 */
export function dialledNumber(phoneNumber: string, skipPhoneValidation: boolean): string | undefined {
  if (skipPhoneValidation) {
    const kept = phoneNumber.replace(/[^\d+*#]/g, '');
    return kept === '' ? undefined : kept;
  }
  const compact = phoneNumber.replace(/[\s\-.()]/g, '');
  return /^\+?\d{8,15}$/.test(compact) ? compact : undefined;
}
