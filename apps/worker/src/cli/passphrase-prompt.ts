/** A passphrase that could not be taken from the terminal or standard input; the message says why. */
export class PassphraseEntryError extends Error {}

/**
 * Asks for the client's passphrase without showing it: twice at a terminal, as a mistyped one
 * would leave every encrypted message unopened; from standard input when it is not a terminal
 * (`… | smsq-worker pair … --passphrase`), its final line break dropped. Taken exactly as typed.
 */
export async function askNewPassphrase(input: NodeJS.ReadStream = process.stdin, output: NodeJS.WritableStream = process.stderr): Promise<string> {
  if (!input.isTTY) return (await readAll(input)).replace(/\r?\n$/, '');
  const passphrase = await readHidden('Passphrase for encrypted messages (not shown): ', input, output);
  if (passphrase === '') throw new PassphraseEntryError('no passphrase was typed');
  if ((await readHidden('The same passphrase again: ', input, output)) !== passphrase) throw new PassphraseEntryError('the two passphrases typed differ');
  return passphrase;
}

async function readAll(input: NodeJS.ReadStream): Promise<string> {
  input.setEncoding('utf8');
  let text = '';
  for await (const chunk of input) text += chunk as string;
  return text;
}

/** One line from the terminal in raw mode, echoing nothing; Ctrl-C cancels, backspace takes back a character. */
function readHidden(prompt: string, input: NodeJS.ReadStream, output: NodeJS.WritableStream): Promise<string> {
  return new Promise((resolve, reject) => {
    output.write(prompt);
    const wasRaw = input.isRaw;
    input.setRawMode(true);
    input.setEncoding('utf8');
    let typed = '';
    const finish = (error?: Error): void => {
      input.off('data', onData);
      input.setRawMode(wasRaw);
      input.pause();
      output.write('\n');
      if (error) reject(error);
      else resolve(typed);
    };
    const onData = (chunk: string): void => {
      for (const character of chunk) {
        if (character === '\r' || character === '\n' || character === '\u0004') return finish();
        if (character === '\u0003') return finish(new PassphraseEntryError('cancelled'));
        if (character === '\u007f' || character === '\b') typed = [...typed].slice(0, -1).join('');
        else typed += character;
      }
    };
    input.on('data', onData);
    input.resume();
  });
}
