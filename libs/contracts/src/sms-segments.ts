/** GSM 03.38 basic character set: one septet each. */
const GSM_BASIC = new Set(
  '@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ !"#¤%&\'()*+,-./0123456789:;<=>?¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà',
);

/** GSM 03.38 extension table: an escape septet and the character, so two septets each. */
const GSM_EXTENSION = new Set('\f^{}\\[~]|€');

const GSM_SINGLE = 160;
const GSM_PART = 153;
const UCS2_SINGLE = 70;
const UCS2_PART = 67;

/**
 * How many SMS the message costs the phone. GSM-7 when every character is in the GSM 03.38 basic
 * or extension table (160 septets alone, 153 per part of a longer one, an extension character
 * two septets); otherwise UCS-2 (70 UTF-16 code units alone, 67 per part). A part never splits
 * an escape pair or a surrogate pair, so a character that does not fit starts the next part.
 * An empty message still costs one.
 */
export function countSegments(message: string): number {
  const characters = [...message];
  const gsm = characters.every((character) => GSM_BASIC.has(character) || GSM_EXTENSION.has(character));
  const costs = gsm ? characters.map((character) => (GSM_EXTENSION.has(character) ? 2 : 1)) : characters.map((character) => character.length);
  return partsOf(costs, gsm ? GSM_SINGLE : UCS2_SINGLE, gsm ? GSM_PART : UCS2_PART);
}

function partsOf(costs: number[], single: number, perPart: number): number {
  const total = costs.reduce((sum, cost) => sum + cost, 0);
  if (total <= single) return 1;
  let parts = 1;
  let used = 0;
  for (const cost of costs) {
    if (used + cost > perPart) {
      parts++;
      used = 0;
    }
    used += cost;
  }
  return parts;
}

/** The most parts a message can cost: 1,600 characters outside the BMP, two UTF-16 units each and never split, are 49 UCS-2 parts (33 to a part). */
export const MAX_REPORTED_PARTS = 49;
export { MESSAGE_MAX_CODE_POINTS } from './gateway/public-limits.js';
