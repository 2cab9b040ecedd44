import { MessageKey, PassphraseKeyring, SEALED_MESSAGE_TEST_VECTORS } from '@smsq/message-crypto';
import { describe, expect, it, vi } from 'vitest';
import { MessageOpener } from './message-opener.js';

const [vector] = SEALED_MESSAGE_TEST_VECTORS;
const encrypted = (message: string) => ({ message, parts: 1, encrypted: true });

describe(MessageOpener.name, () => {
  it('passes a plain task through with the parts smsq named', async () => {
    const sut = new MessageOpener(undefined);

    expect(await sut.textOf({ message: 'Hello', parts: 3, encrypted: false })).toEqual({ kind: 'text', message: 'Hello', parts: 3 });
  });

  it('opens a sealed message (docs/guide/encryption.md, vector 1) and counts the parts of its text', async () => {
    const sut = new MessageOpener(new PassphraseKeyring(vector!.passphrase));

    expect(await sut.textOf(encrypted(vector!.sealed))).toEqual({ kind: 'text', message: 'Your smsq code is 482913', parts: 1 });
  });

  it('derives a key once for every message of its key id', async () => {
    const keyring = new PassphraseKeyring('correct horse battery staple');
    const sealed = await Promise.all(Array.from({ length: 20 }, (_, index) => keyring.seal(`Message ${index}`)));
    const derive = vi.spyOn(MessageKey, 'derive');
    const sut = new MessageOpener(new PassphraseKeyring('correct horse battery staple'));

    const opened = await Promise.all(sealed.map((message) => sut.textOf(encrypted(message))));

    expect(opened.map((text) => text.kind === 'text' && text.message)).toEqual(sealed.map((_, index) => `Message ${index}`));
    expect(derive).toHaveBeenCalledTimes(1);
    derive.mockRestore();
  });

  it("holds the opened text to create-task's rules: not empty, at most 1,600 characters", async () => {
    const keyring = new PassphraseKeyring('correct horse battery staple');
    const sut = new MessageOpener(new PassphraseKeyring('correct horse battery staple'));

    expect(await sut.textOf(encrypted(await keyring.seal('   ')))).toEqual({ kind: 'unsendable', error: 'the decrypted message is empty' });
    expect(await sut.textOf(encrypted(await keyring.seal('a'.repeat(1601))))).toEqual({ kind: 'unsendable', error: 'the decrypted message is 1601 characters; the most is 1600' });
    expect(await sut.textOf(encrypted(await keyring.seal('a'.repeat(1600))))).toMatchObject({ kind: 'text', parts: 11 });
  });

  it('says in words why a message cannot be opened, and never with its text', async () => {
    const sut = new MessageOpener(new PassphraseKeyring('not the passphrase'));
    const none = new MessageOpener(undefined);

    expect(await none.textOf(encrypted(vector!.sealed))).toEqual({ kind: 'unsendable', reason: 'cannot_decrypt', error: expect.stringMatching(/^cannot decrypt: no passphrase is configured on this worker \(WORKER_PASSPHRASE/) });
    expect(await sut.textOf(encrypted(vector!.sealed))).toEqual({ kind: 'unsendable', reason: 'cannot_decrypt', error: 'cannot decrypt: the passphrase is wrong or the message was altered' });
    expect(await sut.textOf(encrypted('$smsq$2$whatever'))).toEqual({
      kind: 'unsendable',
      reason: 'cannot_decrypt',
      error: 'cannot decrypt: the encrypted message uses version 2 of the encryption format, which this version of smsq cannot read; it reads version 1',
    });
  });
});
