// Reply keywords, apart from the message classes so that the worker can read replies by them
// without the validation libraries (@smsq/contracts/keywords).

/** A reply whose whole text is one of these (case, surrounding spaces and punctuation ignored) opts its sender out. */
export const OPT_OUT_KEYWORDS = ['STOP', 'STOPALL', 'UNSUBSCRIBE', 'CANCEL', 'END', 'QUIT'] as const;
/** A reply whose whole text is one of these opts its sender back in. */
export const OPT_IN_KEYWORDS = ['START', 'UNSTOP'] as const;

/** A client's own words each way, upper case as compared. */
export interface OwnKeywords {
  optOutWords: string[];
  optInWords: string[];
}

/** Punctuation a keyword may carry around it: "Stop." and "STOP!" are STOP; "STOP sending" is not a keyword. */
const SURROUNDING = /^[\s\p{P}]+|[\s\p{P}]+$/gu;

/** A reply's text as keywords are compared: NFC, surrounding spaces and punctuation off, upper case. */
export function keywordForm(text: string): string {
  return text.normalize('NFC').replace(SURROUNDING, '').toUpperCase();
}

/** A client's own word as it is kept: one word of letters, digits or marks (any script), in keyword form. */
export function ownKeyword(word: string): string | null {
  const form = keywordForm(word);
  return /^[\p{L}\p{N}\p{M}]{1,32}$/u.test(form) ? form : null;
}

/** What a reply's text asks for, with the client's own words beside the standard ones; null when it is no keyword. */
export function keywordIntent(text: string, own: OwnKeywords): 'opt_out' | 'opt_in' | null {
  if (text.length > 64) return null;
  const form = keywordForm(text);
  // Standard words first: an own word of the other kind saved before that was refused must not turn START into an opt-out.
  if ((OPT_OUT_KEYWORDS as readonly string[]).includes(form)) return 'opt_out';
  if ((OPT_IN_KEYWORDS as readonly string[]).includes(form)) return 'opt_in';
  if (own.optOutWords.includes(form)) return 'opt_out';
  if (own.optInWords.includes(form)) return 'opt_in';
  return null;
}

/**
 * Why these own words cannot be kept, naming the first word that would both opt out and opt in
 * (the standard words counted beside the client's own, compared as replies are); null when none
 * would. Both the API and the dashboard save settings through dispatch, which asks this.
 */
export function ownKeywordsConflict(own: OwnKeywords): string | null {
  const optOut = own.optOutWords.map(keywordForm);
  const optIn = own.optInWords.map(keywordForm);
  const standardOptIn = optOut.find((word) => (OPT_IN_KEYWORDS as readonly string[]).includes(word));
  if (standardOptIn !== undefined) return `opt_out_words: ${standardOptIn} is a standard opt-in word; a word cannot both opt out and opt in`;
  const standardOptOut = optIn.find((word) => (OPT_OUT_KEYWORDS as readonly string[]).includes(word));
  if (standardOptOut !== undefined) return `opt_in_words: ${standardOptOut} is a standard opt-out word; a word cannot both opt out and opt in`;
  const both = optOut.find((word) => optIn.includes(word));
  return both === undefined ? null : `${both} is in both opt_out_words and opt_in_words; a word cannot both opt out and opt in`;
}
