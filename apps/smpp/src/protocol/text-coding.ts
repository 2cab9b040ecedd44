import { CommandStatus } from './command-status.js';
import { GSM_BASIC_BY_SEPTET, GSM_ESCAPE, GSM_EXTENSION_BY_SEPTET, GSM_SEPTETS_BY_CHARACTER } from './gsm-alphabet.js';
import { SmppRefusal } from './smpp-refusal.js';

/** data_coding values smsq reads (SMPP 3.4 section 5.2.19). */
export const DataCoding = {
  /** SMSC default alphabet, which smsq takes as GSM 03.38, one septet per octet. */
  gsm: 0x00,
  ia5: 0x01,
  latin1: 0x03,
  ucs2: 0x08,
} as const;

export type SupportedDataCoding = (typeof DataCoding)[keyof typeof DataCoding];

export class UnsupportedDataCoding extends SmppRefusal {
  readonly status = CommandStatus.ESME_RSUBMITFAIL;

  constructor(readonly dataCoding: number) {
    super(`data_coding 0x${dataCoding.toString(16).padStart(2, '0')} is not supported (0, 1, 3 and 8 are)`);
    this.name = UnsupportedDataCoding.name;
  }
}

/** Octets that are no text in the coding they claim (an octet over 0x7F in GSM or IA5, an odd UCS-2 length). */
export class UndecodableText extends SmppRefusal {
  readonly status = CommandStatus.ESME_RSUBMITFAIL;

  constructor(
    readonly dataCoding: number,
    reason: string,
  ) {
    super(reason);
    this.name = UndecodableText.name;
  }
}

export function isSupportedDataCoding(dataCoding: number): dataCoding is SupportedDataCoding {
  return Object.values<number>(DataCoding).includes(dataCoding);
}

/** The text of short_message or message_payload octets (without UDH) in the given data_coding. */
export function decodeText(octets: Buffer, dataCoding: number): string {
  switch (dataCoding) {
    case DataCoding.gsm:
      return decodeGsm(octets);
    case DataCoding.ia5:
      assertSevenBit(octets, dataCoding);
      return octets.toString('latin1');
    case DataCoding.latin1:
      return octets.toString('latin1');
    case DataCoding.ucs2:
      if (octets.length % 2 !== 0) throw new UndecodableText(dataCoding, `UCS-2 text of ${octets.length} octets is not whole characters`);
      // UTF-16 rather than strict UCS-2, so a pair of surrogates is one character (an emoji).
      return Buffer.from(octets).swap16().toString('utf16le');
    default:
      throw new UnsupportedDataCoding(dataCoding);
  }
}

function decodeGsm(octets: Buffer): string {
  assertSevenBit(octets, DataCoding.gsm);
  let text = '';
  for (let index = 0; index < octets.length; index++) {
    const septet = octets[index]!;
    if (septet !== GSM_ESCAPE) {
      text += GSM_BASIC_BY_SEPTET[septet];
      continue;
    }
    const next = octets[index + 1];
    if (next === undefined) {
      // 03.38: an escape with nothing after it shows as a space.
      text += ' ';
      continue;
    }
    index++;
    // 03.38: an escaped septet missing from the extension table shows as its basic character.
    text += GSM_EXTENSION_BY_SEPTET.get(next) ?? (next === GSM_ESCAPE ? ' ' : GSM_BASIC_BY_SEPTET[next]);
  }
  return text;
}

function assertSevenBit(octets: Buffer, dataCoding: number): void {
  const index = octets.findIndex((octet) => octet > 0x7f);
  if (index !== -1) throw new UndecodableText(dataCoding, `octet 0x${octets[index]!.toString(16)} at ${index} is not 7-bit`);
}

/** The GSM septets (unpacked, one per octet) that write the text, or undefined when a character is not in GSM 03.38. */
export function gsmSeptetsOf(text: string): Buffer | undefined {
  const septets: number[] = [];
  for (const character of text) {
    const written = GSM_SEPTETS_BY_CHARACTER.get(character);
    if (!written) return undefined;
    septets.push(...written);
  }
  return Buffer.from(septets);
}

export function ucs2Of(text: string): Buffer {
  return Buffer.from(text, 'utf16le').swap16();
}

export interface EncodedText {
  dataCoding: typeof DataCoding.gsm | typeof DataCoding.ucs2;
  octets: Buffer;
}

/** Text for deliver_sm: GSM when every character has a septet, else UCS-2 (UTF-16BE). */
export function encodeText(text: string): EncodedText {
  const septets = gsmSeptetsOf(text);
  return septets ? { dataCoding: DataCoding.gsm, octets: septets } : { dataCoding: DataCoding.ucs2, octets: ucs2Of(text) };
}
