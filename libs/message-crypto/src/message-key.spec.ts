import { beforeAll, describe, expect, it } from 'vitest';
import { decodeBase64Url } from './base64url.js';
import { openMessage, sealMessage } from './message-cipher.js';
import { MessageKey } from './message-key.js';
import { SealedMessageError } from './sealed-message-error.js';

const PASSPHRASE = 'a passphrase for the key spec';

describe(MessageKey.name, () => {
  let first: MessageKey;
  let second: MessageKey;

  beforeAll(async () => {
    [first, second] = await Promise.all([MessageKey.fromPassphrase(PASSPHRASE), MessageKey.fromPassphrase(PASSPHRASE)]);
  });

  it('names a new key by its random 16-byte salt, 22 base64url characters, new each time', () => {
    for (const sut of [first, second]) {
      expect(sut.keyId).toMatch(/^[A-Za-z0-9_-]{22}$/);
      const salt = decodeBase64Url(sut.keyId);
      expect(salt.ok && salt.bytes.length).toBe(16);
    }
    expect(first.keyId).not.toBe(second.keyId);
  });

  it('keeps the key inside WebCrypto, for AES-GCM only', () => {
    expect(first.cryptoKey.extractable).toBe(false);
    expect(first.cryptoKey.algorithm).toEqual({ name: 'AES-GCM', length: 256 });
    expect([...first.cryptoKey.usages].sort()).toEqual(['decrypt', 'encrypt']);
  });

  it('derives from the passphrase and a key id the same key that sealed a message', async () => {
    const sealed = await sealMessage(first, 'Meet at 6');

    const sut = await MessageKey.derive(PASSPHRASE, first.keyId);

    expect(sut.keyId).toBe(first.keyId);
    await expect(openMessage(sut, sealed)).resolves.toBe('Meet at 6');
  });

  it.each(['', 'AAECAwQFBgcICQoLDA0OD', 'AAECAwQFBgcICQoLDA0ODx', 'AAECAwQFBgcICQoLDA0OD/'])('refuses the key id %j as malformed', async (keyId) => {
    await expect(MessageKey.derive(PASSPHRASE, keyId)).rejects.toMatchObject({ name: SealedMessageError.name, problem: 'malformed' });
  });

  it.each(['', 'half a pair \ud83d'])('refuses the passphrase %j', async (passphrase) => {
    await expect(MessageKey.fromPassphrase(passphrase)).rejects.toThrow(RangeError);
    await expect(MessageKey.derive(passphrase, first.keyId)).rejects.toThrow(RangeError);
  });
});
