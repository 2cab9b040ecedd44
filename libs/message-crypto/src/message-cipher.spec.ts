import { beforeAll, describe, expect, it } from 'vitest';
import { encodeBase64Url } from './base64url.js';
import { openMessage, sealMessage } from './message-cipher.js';
import { MessageKey } from './message-key.js';
import { maxSealedLength, parseSealedMessage, sealedMessageHeader } from './sealed-message.js';
import { SealedMessageError, type SealedMessageProblem } from './sealed-message-error.js';

const PASSPHRASE = 'the cipher spec passphrase';
const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

const TEXTS: [string, string][] = [
  ['ASCII', 'Your code is 482913'],
  ['Cyrillic and Latin with diacritics', 'Здраво, Ђорђе! Čestitamo — ваш пакет стиже у 14:30.'],
  ['emoji with skin tones, ZWJ sequences and flags', 'Family: 👨‍👩‍👧‍👦, thumbs 👍🏽, flags 🇷🇸🇩🇪, keycap 1️⃣'],
  ['combining marks and CJK', 'e\u0301 a\u0308 漢字 かな 한국어'],
  ['a leading byte order mark', '\uFEFFstarts with U+FEFF'],
  ['line breaks, tabs and a NUL', 'line one\r\nline two\tand\u0000more'],
  ['the format prefix as text', '$smsq$1$ is just text here'],
  ['a long message', 'Long message. '.repeat(120)],
  ['one character', 'a'],
];

async function problemOfOpening(key: MessageKey, sealed: string): Promise<SealedMessageProblem> {
  try {
    await openMessage(key, sealed);
  } catch (error) {
    if (error instanceof SealedMessageError) return error.problem;
    throw error;
  }
  throw new Error(`${sealed} opened`);
}

describe(sealMessage.name, () => {
  let key: MessageKey;

  beforeAll(async () => {
    key = await MessageKey.fromPassphrase(PASSPHRASE);
  });

  it('writes $smsq$1$<keyId>$<nonce>$<ciphertext and tag>, the ciphertext as long as the UTF-8 text plus 16', async () => {
    const sut = await sealMessage(key, 'Grüße 👋');

    expect(sut).toMatch(new RegExp(`^\\$smsq\\$1\\$${key.keyId}\\$[A-Za-z0-9_-]{16}\\$[A-Za-z0-9_-]+$`));
    expect(parseSealedMessage(sut).ciphertext).toHaveLength(new TextEncoder().encode('Grüße 👋').length + 16);
  });

  it('uses a fresh nonce for every message', async () => {
    const sealed = await Promise.all(Array.from({ length: 50 }, () => sealMessage(key, 'same text')));

    expect(new Set(sealed.map((text) => parseSealedMessage(text).header)).size).toBe(50);
  });

  it('gives the same text for the same nonce, for test vectors', async () => {
    const nonce = new Uint8Array(12).fill(7);

    const sut = await sealMessage(key, 'fixed', { nonce });

    expect(sut).toBe(await sealMessage(key, 'fixed', { nonce }));
    expect(sut.startsWith(sealedMessageHeader(key.keyId, nonce))).toBe(true);
  });

  it.each([11, 13, 0])('refuses a %i-byte nonce', async (length) => {
    await expect(sealMessage(key, 'text', { nonce: new Uint8Array(length) })).rejects.toThrow(RangeError);
  });

  it('refuses an empty text and a lone surrogate, which UTF-8 cannot carry', async () => {
    await expect(sealMessage(key, '')).rejects.toThrow('There is no text to encrypt: an SMS cannot be empty.');
    await expect(sealMessage(key, 'broken \ud83d pair')).rejects.toThrow(RangeError);
    await expect(sealMessage(key, 'reversed \udc4d\ud83d pair')).rejects.toThrow(RangeError);
  });

  it('is never longer than maxSealedLength says, and reaches it for 4-byte characters', async () => {
    for (const count of [1, 2, 3, 10, 70, 160]) {
      const widest = await sealMessage(key, '😀'.repeat(count));
      const ascii = await sealMessage(key, 'x'.repeat(count));
      const bmp = await sealMessage(key, 'ж€'.repeat(count).slice(0, count));

      expect(widest).toHaveLength(maxSealedLength(count));
      expect(ascii.length).toBeLessThan(maxSealedLength(count));
      expect(bmp.length).toBeLessThan(maxSealedLength(count));
    }
  });
});

describe(openMessage.name, () => {
  let key: MessageKey;
  let wrongPassphrase: MessageKey;
  let otherKey: MessageKey;

  beforeAll(async () => {
    key = await MessageKey.fromPassphrase(PASSPHRASE);
    [wrongPassphrase, otherKey] = await Promise.all([MessageKey.derive(`${PASSPHRASE}!`, key.keyId), MessageKey.fromPassphrase(PASSPHRASE)]);
  });

  it.each(TEXTS)('gives back %s exactly', async (_case, text) => {
    const sut = await openMessage(key, await sealMessage(key, text));

    expect(sut).toBe(text);
  });

  it('fails with cannot_decrypt under another passphrase with the same key id', async () => {
    const sealed = await sealMessage(key, 'for the right passphrase only');

    await expect(openMessage(wrongPassphrase, sealed)).rejects.toEqual(
      new SealedMessageError('cannot_decrypt', 'The message could not be decrypted: the passphrase is wrong, or the message was altered.'),
    );
  });

  it('fails with wrong_key, naming both key ids, for a message sealed with another key', async () => {
    const sealed = await sealMessage(otherKey, 'sealed under another salt');

    await expect(openMessage(key, sealed)).rejects.toEqual(
      new SealedMessageError('wrong_key', `The message was encrypted with another key (key id ${otherKey.keyId}) than this one (key id ${key.keyId}).`),
    );
  });

  it('fails whichever single character is replaced by whichever other base64url character', async () => {
    // 30 UTF-8 bytes + 16 = 46 bytes: 62 characters, the last with 4 unused bits.
    const sealed = await sealMessage(key, 'Transfer 100 to account 42 ✓');
    const keyIdAt = 8;
    const nonceAt = keyIdAt + 22 + 1;
    const ciphertextAt = nonceAt + 16 + 1;
    expect(sealed).toHaveLength(ciphertextAt + 62);
    const problems = new Map<number, Set<SealedMessageProblem>>();

    for (let at = 0; at < sealed.length; at++) {
      const seen = new Set<SealedMessageProblem>();
      for (const replacement of ALPHABET) {
        if (replacement === sealed[at]) continue;
        seen.add(await problemOfOpening(key, sealed.slice(0, at) + replacement + sealed.slice(at + 1)));
      }
      problems.set(at, seen);
    }

    const expected = (at: number): SealedMessageProblem[] => {
      if (at < 6) return ['not_sealed']; // $smsq$
      if (at < keyIdAt) return ['unsupported_version']; // 1$
      if (at === nonceAt - 1 || at === ciphertextAt - 1) return ['malformed']; // a "$" between fields
      if (at < nonceAt - 2) return ['wrong_key'];
      if (at === nonceAt - 2) return ['malformed', 'wrong_key']; // the key id's last character has 4 unused bits
      if (at < sealed.length - 1) return ['cannot_decrypt']; // the nonce, the ciphertext
      return ['cannot_decrypt', 'malformed']; // the ciphertext's last character may have unused bits
    };
    for (const [at, seen] of problems) {
      expect({ at, problems: [...seen].sort() }).toEqual({ at, problems: expected(at) });
    }
  });

  it('fails with malformed when the last character only changes unused bits', async () => {
    // 1 byte + 16 tag = 17 bytes = 23 characters, the last holding 2 unused bits.
    const sealed = await sealMessage(key, 'a');
    const last = ALPHABET.indexOf(sealed.at(-1)!);
    const sameBytes = sealed.slice(0, -1) + ALPHABET[last | 1];

    expect(last & 3).toBe(0);
    await expect(openMessage(key, sameBytes)).rejects.toMatchObject({ problem: 'malformed' });
  });

  it('fails when characters are cut from the end, or the tag is missing', async () => {
    const sealed = await sealMessage(key, 'cut short');
    const { header } = parseSealedMessage(sealed);

    for (let cut = 1; cut <= 4; cut++) {
      expect(['cannot_decrypt', 'malformed']).toContain(await problemOfOpening(key, sealed.slice(0, -cut)));
    }
    expect(await problemOfOpening(key, header + sealed.slice(header.length, header.length + 21))).toBe('malformed');
  });

  it('fails when the header is sealed under another nonce than the one it names', async () => {
    const a = parseSealedMessage(await sealMessage(key, 'same text'));
    const b = parseSealedMessage(await sealMessage(key, 'same text'));

    expect(await problemOfOpening(key, a.header + encodeBase64Url(b.ciphertext))).toBe('cannot_decrypt');
  });

  it('fails with cannot_decrypt when what was sealed is not UTF-8', async () => {
    // Only another implementation could seal this: bytes that are no UTF-8 text.
    const nonce = new Uint8Array(12);
    const header = sealedMessageHeader(key.keyId, nonce);
    const ciphertext = await globalThis.crypto.subtle.encrypt(
      { name: 'AES-GCM', iv: nonce, additionalData: new TextEncoder().encode(header) },
      key.cryptoKey,
      new Uint8Array([0x61, 0xff, 0xfe, 0x62]),
    );

    await expect(openMessage(key, header + encodeBase64Url(new Uint8Array(ciphertext)))).rejects.toEqual(
      new SealedMessageError('cannot_decrypt', 'The message decrypted, but what it holds is not UTF-8 text.'),
    );
  });

  it('gives back an empty text another implementation sealed (only the tag)', async () => {
    const nonce = new Uint8Array(12).fill(1);
    const header = sealedMessageHeader(key.keyId, nonce);
    const tag = await globalThis.crypto.subtle.encrypt({ name: 'AES-GCM', iv: nonce, additionalData: new TextEncoder().encode(header) }, key.cryptoKey, new Uint8Array(0));

    await expect(openMessage(key, header + encodeBase64Url(new Uint8Array(tag)))).resolves.toBe('');
  });

  it('refuses text that is not a sealed message as parseSealedMessage does', async () => {
    await expect(openMessage(key, 'plain text')).rejects.toMatchObject({ problem: 'not_sealed' });
    await expect(openMessage(key, '$smsq$9$x')).rejects.toMatchObject({ problem: 'unsupported_version' });
  });
});
