import { PassphraseKeyring, SEALED_MESSAGE_TEST_VECTORS } from '@smsq/message-crypto';
import { describe, expect, it } from 'vitest';
import { MessageOpener, SealOnce, openingProblemText, partsText, sealedMessages } from './sealed-messages';

const [first, second, third] = SEALED_MESSAGE_TEST_VECTORS;
// One keyring per passphrase, as the page keeps one: each key is derived once (600,000 iterations).
const keyrings = new Map<string, PassphraseKeyring>();
function keyringOf(passphrase: string): PassphraseKeyring {
  if (!keyrings.has(passphrase)) keyrings.set(passphrase, new PassphraseKeyring(passphrase));
  return keyrings.get(passphrase)!;
}

describe(MessageOpener.name, () => {
  it('opens each of docs/guide/encryption.md’s test vectors with its passphrase to its text', async () => {
    for (const vector of SEALED_MESSAGE_TEST_VECTORS) {
      const sut = new MessageOpener(keyringOf(vector.passphrase));

      expect(await sut.open(vector.sealed)).toEqual({ ok: true, text: vector.plaintext });
    }
  });

  it('says a message sealed with another passphrase cannot be decrypted with this one, rather than failing', async () => {
    const sut = new MessageOpener(keyringOf(second!.passphrase));

    const opened = await sut.open(first!.sealed);

    expect(opened).toEqual({ ok: false, problem: 'wrong_passphrase' });
    expect(openingProblemText('wrong_passphrase')).toBe('Cannot decrypt with this passphrase');
  });

  it('tells a damaged message and one of a newer format from a wrong passphrase', async () => {
    const sut = new MessageOpener(keyringOf(third!.passphrase));

    // docs/guide/encryption.md: the last character changed to one a lenient decoder would read as the same bytes.
    expect(await sut.open(`${third!.sealed.slice(0, -1)}t`)).toEqual({ ok: false, problem: 'damaged' });
    expect(await sut.open('$smsq$2$AAECAwQFBgcICQoLDA0ODw$EBESExQVFhcYGRob$VX0I')).toEqual({ ok: false, problem: 'newer_format' });
    expect(await sut.open('plain text marked as encrypted')).toEqual({ ok: false, problem: 'damaged' });
  });

  it('opens a message once: the same message again is the same answer, known at once after it settled', async () => {
    const sut = new MessageOpener(keyringOf(first!.passphrase));

    const opening = sut.open(first!.sealed);
    expect(sut.open(first!.sealed)).toBe(opening);
    await opening;

    expect(sut.opened(first!.sealed)).toEqual({ ok: true, text: first!.plaintext });
    expect(sut.opened(third!.sealed)).toBeUndefined();
  });
});

describe(sealedMessages.name, () => {
  it('seals each text so that the passphrase opens it again, marking it encrypted and keeping the rest', async () => {
    const keyring = keyringOf(first!.passphrase);

    const sealed = await sealedMessages(keyring, [
      { recipient: '+381641234567', message: 'Your code is 1234', priority: 'high' },
      { recipient: '+381641234568', message: 'Здраво 👋', scheduledAt: '2026-12-01 09:00' },
    ]);

    expect(sealed).toEqual([
      { recipient: '+381641234567', message: expect.stringMatching(/^\$smsq\$1\$/), encrypted: true, priority: 'high' },
      { recipient: '+381641234568', message: expect.stringMatching(/^\$smsq\$1\$/), encrypted: true, scheduledAt: '2026-12-01 09:00' },
    ]);
    const texts = sealed.map((sms) => ('message' in sms ? sms.message : ''));
    expect(await Promise.all(texts.map((text) => new PassphraseKeyring(first!.passphrase).open(text)))).toEqual(['Your code is 1234', 'Здраво 👋']);
    expect(await new MessageOpener(keyringOf(second!.passphrase)).open(texts[0]!)).toEqual({ ok: false, problem: 'wrong_passphrase' });
  });

  it('leaves an empty text as it is, for create-task to refuse as any empty SMS', async () => {
    expect(await sealedMessages(keyringOf(first!.passphrase), [{ recipient: '+381641234567', message: '' }])).toEqual([{ recipient: '+381641234567', message: '' }]);
  });

  it('refuses a template, which smsq would have to read to fill', async () => {
    await expect(sealedMessages(keyringOf(first!.passphrase), [{ recipient: '+381641234567', templateId: 4, variables: { code: '1234' } }])).rejects.toThrow('cannot be encrypted');
  });
});

describe(SealOnce.name, () => {
  it('gives every try of one send the same sealed text, and a new send, text or passphrase a new one', async () => {
    const sut = new SealOnce();
    const keyring = keyringOf(first!.passphrase);

    const once = await sut.seal(keyring, 'send-1', 'hello');
    const retried = await sut.seal(keyring, 'send-1', 'hello');
    const nextSend = await sut.seal(keyring, 'send-2', 'hello');
    const edited = await sut.seal(keyring, 'send-2', 'hello again');
    const otherPassphrase = await sut.seal(keyringOf(second!.passphrase), 'send-2', 'hello again');

    expect(retried).toBe(once);
    expect(new Set([once, nextSend, edited, otherPassphrase]).size).toBe(4);
    expect(await keyring.open(once)).toBe('hello');
  });

  it('seals again after a text that could not be sealed', async () => {
    const sut = new SealOnce();

    await expect(sut.seal(keyringOf(first!.passphrase), 'send-1', '')).rejects.toThrow('cannot be empty');
    expect(await sut.seal(keyringOf(first!.passphrase), 'send-1', 'now with text')).toMatch(/^\$smsq\$1\$/);
  });
});

describe(partsText.name, () => {
  it('shows an encrypted message’s parts as not known yet, and a counted one’s number', () => {
    expect(partsText(2)).toBe('2');
    expect(partsText(null)).toMatch(/^Not known yet/);
  });
});
