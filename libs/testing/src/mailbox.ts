import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  from: string;
  to: string[];
  /** The raw message with quoted-printable soft line breaks and escapes undone, so a long link reads as one line. */
  text: string;
}

export interface Mailbox {
  /** `smtp://127.0.0.1:<port>`, for SMSQ_SMTP_URL. */
  url: string;
  mails: ReceivedMail[];
  close(): Promise<void>;
}

/** A real SMTP server in the test, keeping every message it is given. */
export async function startMailbox(): Promise<Mailbox> {
  const mails: ReceivedMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        mails.push({ from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '', to: session.envelope.rcptTo.map((rcpt) => rcpt.address), text: unfold(Buffer.concat(chunks).toString('utf8')) });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return { url: `smtp://127.0.0.1:${port}`, mails, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

function unfold(raw: string): string {
  return raw.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}
