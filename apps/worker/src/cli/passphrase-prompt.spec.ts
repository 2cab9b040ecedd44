import { PassThrough, Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { askNewPassphrase, PassphraseEntryError } from './passphrase-prompt.js';

/** A terminal that types `keys`, chunk by chunk as they are asked for, and records what is shown. */
function terminal(...keys: string[]): { input: NodeJS.ReadStream; output: PassThrough; shown: () => string; rawModes: boolean[] } {
  const input = new PassThrough() as unknown as NodeJS.ReadStream & PassThrough;
  const rawModes: boolean[] = [];
  Object.assign(input, {
    isTTY: true,
    isRaw: false,
    setRawMode(mode: boolean) {
      rawModes.push(mode);
      (input as { isRaw: boolean }).isRaw = mode;
      return input;
    },
  });
  const output = new PassThrough();
  let shown = '';
  output.on('data', (chunk: Buffer) => {
    shown += chunk.toString();
    // Each prompt gets the next answer, as a person types after reading it.
    if (chunk.toString().endsWith(': ') && keys.length > 0) input.write(keys.shift()!);
  });
  return { input, output, shown: () => shown, rawModes };
}

describe(askNewPassphrase.name, () => {
  it('asks twice at a terminal, showing nothing typed, and takes back a character on backspace', async () => {
    const { input, output, shown, rawModes } = terminal(' horse batteryy\u007f staple \r', ' horse battery staple \r');

    expect(await askNewPassphrase(input, output)).toBe(' horse battery staple ');
    expect(shown()).toBe('Passphrase for encrypted messages (not shown): \nThe same passphrase again: \n');
    expect(rawModes).toEqual([true, false, true, false]);
  });

  it('refuses two different passphrases, and Ctrl-C', async () => {
    const typedTwice = terminal('one\r', 'two\r');
    await expect(askNewPassphrase(typedTwice.input, typedTwice.output)).rejects.toThrow(new PassphraseEntryError('the two passphrases typed differ'));
    const cancelled = terminal('on\u0003');
    await expect(askNewPassphrase(cancelled.input, cancelled.output)).rejects.toThrow('cancelled');
  });

  it('reads standard input that is not a terminal, its final line break dropped', async () => {
    const piped = Readable.from([Buffer.from(' horse battery '), Buffer.from('staple \n')]) as unknown as NodeJS.ReadStream;

    expect(await askNewPassphrase(piped, new PassThrough())).toBe(' horse battery staple ');
  });
});
