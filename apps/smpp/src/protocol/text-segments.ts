import { EsmClass } from './esm-class.js';
import { DataCoding, gsmSeptetsOf, ucs2Of } from './text-coding.js';

export interface TextSegments {
  dataCoding: typeof DataCoding.gsm | typeof DataCoding.ucs2;
  /** esm_class bits the segments need: UDHI when there is more than one. */
  esmClass: number;
  /** short_message of each deliver_sm, in order; each part starts with its UDH. */
  shortMessages: Buffer[];
}

// One SMS holds 140 octets: 160 GSM septets or 70 UCS-2 units; a part loses 6 octets to its UDH.
const GSM_SINGLE = 160;
const GSM_PART = 153;
const UCS2_SINGLE = 140;
const UCS2_PART = 134;
const MAX_PARTS = 255;

/**
 * The text as one short_message, or as parts with an 8-bit-reference concatenation UDH (IEI 0x00).
 * A part never ends inside a GSM escape pair or a UTF-16 surrogate pair, so each part decodes alone.
 */
export function segmentText(text: string, reference: number): TextSegments {
  const septets = gsmSeptetsOf(text);
  const [dataCoding, single, part] = septets ? [DataCoding.gsm, GSM_SINGLE, GSM_PART] : [DataCoding.ucs2, UCS2_SINGLE, UCS2_PART];
  const whole = septets ?? ucs2Of(text);
  if (whole.length <= single) return { dataCoding, esmClass: 0, shortMessages: [whole] };

  const characters = [...text].map((character) => (septets ? gsmSeptetsOf(character)! : ucs2Of(character)));

  const chunks: Buffer[][] = [[]];
  let filled = 0;
  for (const written of characters) {
    if (filled + written.length > part) {
      chunks.push([]);
      filled = 0;
    }
    chunks.at(-1)!.push(written);
    filled += written.length;
  }
  if (chunks.length > MAX_PARTS) throw new RangeError(`text needs ${chunks.length} parts; at most ${MAX_PARTS} fit one message`);
  const shortMessages = chunks.map((chunk, index) => Buffer.concat([Buffer.of(0x05, 0x00, 0x03, reference & 0xff, chunks.length, index + 1), ...chunk]));
  return { dataCoding, esmClass: EsmClass.udhi, shortMessages };
}
