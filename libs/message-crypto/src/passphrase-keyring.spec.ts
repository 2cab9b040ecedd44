import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { MessageKey } from './message-key.js';
import { PassphraseKeyring } from './passphrase-keyring.js';
import { SealedMessageError } from './sealed-message-error.js';

const PASSPHRASE = 'the keyring spec passphrase';

describe(PassphraseKeyring.name, () => {
  /** Messages sealed in another session with the same passphrase: another key id. */
  let fromBrowser: string[];

  beforeAll(async () => {
    const browser = new PassphraseKeyring(PASSPHRASE);
    fromBrowser = await Promise.all(Array.from({ length: 10 }, (_, i) => browser.seal(`message ${i} 📨`)));
  });

  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('derives the key of a key id once, however many messages name it and however concurrently they are opened', async () => {
    const derive = vi.spyOn(MessageKey, 'derive');
    const sut = new PassphraseKeyring(PASSPHRASE);

    const together = await Promise.all(fromBrowser.map((sealed) => sut.open(sealed)));
    const oneByOne: string[] = [];
    for (const sealed of fromBrowser) oneByOne.push(await sut.open(sealed));

    expect(together).toEqual(fromBrowser.map((_, i) => `message ${i} 📨`));
    expect(oneByOne).toEqual(together);
    expect(derive).toHaveBeenCalledTimes(1);
  });

  it('seals every message with one key made once, and opens its own messages without deriving', async () => {
    const make = vi.spyOn(MessageKey, 'fromPassphrase');
    const derive = vi.spyOn(MessageKey, 'derive');
    const sut = new PassphraseKeyring(PASSPHRASE);

    const sealed = await Promise.all(Array.from({ length: 10 }, (_, i) => sut.seal(`reply ${i}`)));
    const opened = await Promise.all(sealed.map((text) => sut.open(text)));

    expect(new Set(sealed.map((text) => text.slice(0, 30))).size).toBe(1);
    expect(new Set(sealed).size).toBe(10);
    expect(opened).toEqual(Array.from({ length: 10 }, (_, i) => `reply ${i}`));
    expect(make).toHaveBeenCalledTimes(1);
    expect(derive).not.toHaveBeenCalled();
  });

  it('fails with cannot_decrypt under another passphrase', async () => {
    const sut = new PassphraseKeyring(`${PASSPHRASE}?`);

    await expect(sut.open(fromBrowser[0]!)).rejects.toMatchObject({ name: SealedMessageError.name, problem: 'cannot_decrypt' });
  });

  it('refuses what is not a sealed message without deriving a key', async () => {
    const derive = vi.spyOn(MessageKey, 'derive');
    const sut = new PassphraseKeyring(PASSPHRASE);

    await expect(sut.open('just text')).rejects.toMatchObject({ problem: 'not_sealed' });
    await expect(sut.open(`${fromBrowser[0]}=`)).rejects.toMatchObject({ problem: 'malformed' });
    expect(derive).not.toHaveBeenCalled();
  });

  it('derives again after a derivation failed, instead of keeping the failure', async () => {
    const derive = vi.spyOn(MessageKey, 'derive').mockRejectedValueOnce(new Error('WebCrypto went away'));
    const sut = new PassphraseKeyring(PASSPHRASE);

    await expect(sut.open(fromBrowser[0]!)).rejects.toThrow('WebCrypto went away');
    await expect(sut.open(fromBrowser[0]!)).resolves.toBe('message 0 📨');
    expect(derive).toHaveBeenCalledTimes(2);
  });

  it('refuses an empty text before making a key', async () => {
    const make = vi.spyOn(MessageKey, 'fromPassphrase');
    const sut = new PassphraseKeyring(PASSPHRASE);

    await expect(sut.seal('')).rejects.toThrow(RangeError);
    expect(make).not.toHaveBeenCalled();
  });

  it('refuses an empty passphrase', () => {
    expect(() => new PassphraseKeyring('')).toThrow(RangeError);
  });

  it('never shows its passphrase when serialised or listed', () => {
    const sut = new PassphraseKeyring(PASSPHRASE);

    expect(JSON.stringify(sut)).not.toContain(PASSPHRASE);
    expect(Object.values(sut)).not.toContain(PASSPHRASE);
  });
});
