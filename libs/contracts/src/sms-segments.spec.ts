import { describe, expect, it } from 'vitest';
import { countSegments } from './sms-segments.js';

describe(countSegments.name, () => {
  it('counts one SMS for up to 160 GSM-7 characters, and 153 per part beyond', () => {
    expect(countSegments('')).toBe(1);
    expect(countSegments('hello')).toBe(1);
    expect(countSegments('x'.repeat(160))).toBe(1);
    expect(countSegments('x'.repeat(161))).toBe(2);
    expect(countSegments('x'.repeat(306))).toBe(2);
    expect(countSegments('x'.repeat(307))).toBe(3);
    expect(countSegments('x'.repeat(400))).toBe(3);
    expect(countSegments('x'.repeat(1600))).toBe(11);
  });

  it('counts every character of the GSM 03.38 basic table as one septet', () => {
    const basic = '@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ !"#¤%&\'()*+,-./0123456789:;<=>?¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà';
    expect([...basic]).toHaveLength(127);
    expect(countSegments(basic)).toBe(1);
    expect(countSegments(basic + 'x'.repeat(33))).toBe(1);
    expect(countSegments(basic + 'x'.repeat(34))).toBe(2);
  });

  it('counts the extension characters as two septets each', () => {
    for (const character of ['^', '{', '}', '\\', '[', '~', ']', '|', '€', '\f']) {
      expect(countSegments(character.repeat(80)), JSON.stringify(character)).toBe(1);
      expect(countSegments(character.repeat(81)), JSON.stringify(character)).toBe(2);
    }
    expect(countSegments('x'.repeat(159) + '€')).toBe(2);
  });

  it('never splits an escape pair between two parts', () => {
    // 152 septets, then an extension character that would straddle the part boundary: it opens the second part.
    expect(countSegments('x'.repeat(152) + '€' + 'x'.repeat(151))).toBe(2);
    expect(countSegments('x'.repeat(152) + '€' + 'x'.repeat(152))).toBe(3);
    expect(countSegments('€'.repeat(153))).toBe(3);
  });

  it('falls back to UCS-2 for anything outside GSM-7: 70 alone, 67 per part', () => {
    expect(countSegments('Привет, как дела?')).toBe(1);
    expect(countSegments('ж'.repeat(70))).toBe(1);
    expect(countSegments('ж'.repeat(71))).toBe(2);
    expect(countSegments('ж'.repeat(134))).toBe(2);
    expect(countSegments('ж'.repeat(135))).toBe(3);
    // One character outside GSM-7 turns the whole message into UCS-2.
    expect(countSegments('x'.repeat(69) + 'ç')).toBe(1);
    expect(countSegments('x'.repeat(70) + 'ç')).toBe(2);
    expect(countSegments('x'.repeat(100) + 'Ж')).toBe(2);
  });

  it('counts UTF-16 code units and never splits a surrogate pair', () => {
    expect(countSegments('😀'.repeat(35))).toBe(1);
    expect(countSegments('😀'.repeat(36))).toBe(2);
    // 66 units, then a pair that would straddle the boundary.
    expect(countSegments('ж'.repeat(66) + '😀' + 'ж'.repeat(65))).toBe(2);
    expect(countSegments('ж'.repeat(66) + '😀' + 'ж'.repeat(66))).toBe(3);
    expect(countSegments('😀'.repeat(67))).toBe(3);
  });
});
