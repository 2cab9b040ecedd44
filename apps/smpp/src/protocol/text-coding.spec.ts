import { describe, expect, it } from 'vitest';
import { CommandStatus } from './command-status.js';
import { DataCoding, decodeText, encodeText, UndecodableText, UnsupportedDataCoding } from './text-coding.js';

describe(decodeText.name, () => {
  it('reads data_coding 0 as unpacked GSM 03.38, one septet per octet', () => {
    // "@£$ Hello_¿" in the default alphabet: @ is 0x00, £ 0x01, $ 0x02, _ 0x11, ¿ 0x60.
    const septets = Buffer.of(0x00, 0x01, 0x02, 0x20, 0x48, 0x65, 0x6c, 0x6c, 0x6f, 0x11, 0x60);

    expect(decodeText(septets, DataCoding.gsm)).toBe('@£$ Hello_¿');
  });

  it('reads the GSM extension table after the escape septet', () => {
    const septets = Buffer.of(0x1b, 0x65, 0x35, 0x20, 0x1b, 0x3c, 0x41, 0x1b, 0x3e, 0x1b, 0x28, 0x1b, 0x29, 0x1b, 0x14, 0x1b, 0x3d, 0x1b, 0x2f, 0x1b, 0x40, 0x1b, 0x0a);

    expect(decodeText(septets, DataCoding.gsm)).toBe('€5 [A]{}^~\\|\f');
  });

  it('shows an escape with an unknown or no septet after it as 03.38 says', () => {
    expect(decodeText(Buffer.of(0x1b, 0x41, 0x1b), DataCoding.gsm)).toBe('A ');
  });

  it('reads data_coding 1 as IA5 (ASCII)', () => {
    expect(decodeText(Buffer.from('Code: 1234 @home $5', 'ascii'), DataCoding.ia5)).toBe('Code: 1234 @home $5');
  });

  it('reads data_coding 3 as Latin-1', () => {
    expect(decodeText(Buffer.of(0x43, 0x61, 0x66, 0xe9, 0x20, 0xa3, 0x35, 0x20, 0xfc, 0xdf), DataCoding.latin1)).toBe('Café £5 üß');
  });

  it('reads data_coding 8 as UCS-2 big-endian, an emoji as its surrogate pair', () => {
    // П р и в е т, space, then U+1F600 as D83D DE00.
    const octets = Buffer.from('041f0440043804320435044200' + '20d83dde00', 'hex');

    expect(decodeText(octets, DataCoding.ucs2)).toBe('Привет 😀');
  });

  it('refuses another data_coding with UnsupportedDataCoding (ESME_RSUBMITFAIL)', () => {
    const refusal = (() => {
      try {
        decodeText(Buffer.from('hi'), 0x04);
      } catch (error) {
        return error;
      }
    })();

    expect(refusal).toBeInstanceOf(UnsupportedDataCoding);
    expect(refusal).toMatchObject({ dataCoding: 4, status: CommandStatus.ESME_RSUBMITFAIL });
  });

  it('refuses octets that are no text in their coding', () => {
    expect(() => decodeText(Buffer.of(0x41, 0x80), DataCoding.gsm)).toThrow(UndecodableText);
    expect(() => decodeText(Buffer.of(0x41, 0xe9), DataCoding.ia5)).toThrow(UndecodableText);
    expect(() => decodeText(Buffer.of(0x00, 0x41, 0x00), DataCoding.ucs2)).toThrow(UndecodableText);
  });
});

describe(encodeText.name, () => {
  it('writes GSM 03.38 septets, escaping extension characters, when every character has one', () => {
    expect(encodeText('€10 [ok] @home')).toEqual({ dataCoding: DataCoding.gsm, octets: Buffer.of(0x1b, 0x65, 0x31, 0x30, 0x20, 0x1b, 0x3c, 0x6f, 0x6b, 0x1b, 0x3e, 0x20, 0x00, 0x68, 0x6f, 0x6d, 0x65) });
  });

  it('writes UCS-2 big-endian when a character is not in GSM 03.38', () => {
    expect(encodeText('Ćao 😀')).toEqual({ dataCoding: DataCoding.ucs2, octets: Buffer.from('01060061006f0020d83dde00', 'hex') });
  });

  it('reads back what it wrote', () => {
    for (const text of ['Plain text', 'ÄÖÜ äöü ß €{}', 'Ђорђе 🚀 漢字']) {
      const { dataCoding, octets } = encodeText(text);

      expect(decodeText(octets, dataCoding)).toBe(text);
    }
  });
});
