import { describe, expect, it } from 'vitest';
import { readMessageContent, type MessagePart } from './long-message.js';
import { DataCoding, decodeText } from './text-coding.js';
import { segmentText } from './text-segments.js';

function partsOf(text: string, reference = 9): MessagePart[] {
  const segments = segmentText(text, reference);
  return segments.shortMessages.map((shortMessage) => {
    const content = readMessageContent({ esmClass: segments.esmClass, dataCoding: segments.dataCoding, shortMessage, tlvs: new Map() });
    if (content.kind !== 'part') throw new Error('expected a part');
    return content.part;
  });
}

describe(segmentText.name, () => {
  it('keeps a text that fits one SMS in one short_message without UDH', () => {
    expect(segmentText('x'.repeat(160), 1)).toEqual({ dataCoding: DataCoding.gsm, esmClass: 0, shortMessages: [Buffer.from('x'.repeat(160))] });
    expect(segmentText('Ж'.repeat(70), 1)).toMatchObject({ dataCoding: DataCoding.ucs2, esmClass: 0 });
  });

  it('cuts a longer GSM text into parts of 153 septets under an 8-bit reference UDH', () => {
    const parts = partsOf('a'.repeat(400), 0x2a);

    expect(parts.map((part) => [part.reference, part.total, part.seq, part.userData.length])).toEqual([
      [0x2a, 3, 1, 153],
      [0x2a, 3, 2, 153],
      [0x2a, 3, 3, 94],
    ]);
  });

  it('never ends a GSM part inside an escape pair', () => {
    const text = `${'a'.repeat(152)}€${'b'.repeat(10)}`;
    const parts = partsOf(text);

    expect(parts.map((part) => part.userData.length)).toEqual([152, 12]);
    expect(parts.map((part) => decodeText(part.userData, part.dataCoding)).join('')).toBe(text);
  });

  it('never ends a UCS-2 part inside a surrogate pair', () => {
    const text = `${'Ж'.repeat(66)}😀${'Ж'.repeat(10)}`;
    const parts = partsOf(text);

    expect(parts.map((part) => part.userData.length)).toEqual([132, 24]);
    expect(parts.map((part) => decodeText(part.userData, part.dataCoding)).join('')).toBe(text);
  });
});
