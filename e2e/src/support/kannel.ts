import { eventually, freePort } from '@smsq/testing';
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * Kannel's dlr-url `%d`: what a report says. A report of several at once adds them up; EXPIRED
 * (message_state 3) comes as 34, `undelivered` plus Kannel's own 32.
 */
export const KANNEL_DLR = { delivered: 1, undelivered: 2, buffered: 4, smscAccepted: 8, smscRejected: 16 } as const;

export interface KannelGatewayOptions {
  /** smsq's SMPP server. */
  smpp: { host?: string; port: number; systemId: string; password: string };
  /**
   * `transceiver`: one bind_transceiver. `transmitter-receiver`: a bind_transmitter and a
   * bind_receiver, two `smsc` groups of one smsc-id (Kannel 1.4.5 refuses `port` and
   * `receive-port` in one group), so that a report coming in on the receiver finds the message
   * sent on the transmitter.
   */
  bind?: 'transceiver' | 'transmitter-receiver';
  /** The sender of a sendsms request that names none (sendsms refuses one without). */
  defaultSender?: string;
  /** Seconds between Kannel's enquire_links. */
  enquireLinkSeconds?: number;
  /** Lines added to a group (`key = value`), for what a test needs beyond these. */
  extra?: { core?: string[]; smsc?: string[]; smsbox?: string[] };
}

export interface KannelSms {
  to: string;
  text: string;
  from?: string;
  /** 0 GSM 7-bit (data_coding 0), 1 8-bit (data_coding 4), 2 UCS-2 (data_coding 8); the text is sent as UTF-8 and Kannel converts it. */
  coding?: 0 | 1 | 2;
  /** Which reports Kannel asks for and passes on: the sum of KANNEL_DLR's values (1 or 2 set registered_delivery 1, 4 adds 0x10). */
  dlrMask?: number;
  /** Where Kannel sends the reports; by default the gateway's own receiver, recorded in `reports`. */
  dlrUrl?: string;
  /** Minutes: validity_period (absolute), schedule_delivery_time (absolute), priority_flag. */
  validityMinutes?: number;
  deferredMinutes?: number;
  priority?: 0 | 1 | 2 | 3;
}

export interface KannelSendAnswer {
  /** 202 with `0: Accepted for delivery` once queued in Kannel (not yet submitted to smsq). */
  status: number;
  text: string;
  /** Names this message's reports in `reports`. */
  ref: string;
}

/** A delivery report as Kannel passes it on to the dlr-url. */
export interface KannelDeliveryReport {
  ref: string;
  /** `%d`, see KANNEL_DLR. */
  type: number;
  /** `%F`: the message_id smsq answered in submit_sm_resp (of the first part of a long message). */
  messageId: string;
  /** `%A`: the receipt's text (`id:… stat:…`), or `ACK/` and `NACK/<status>/<reason>` for Kannel's own reports on submit_sm_resp. */
  answer: string;
  /** `%p`: the phone the message was sent to; `%P`: its sender. */
  phone: string;
  sender: string;
}

/** An SMS smsq delivered to Kannel (deliver_sm, not a receipt), as smsbox passes it on to its get-url. */
export interface KannelReceivedSms {
  /** `%p` and `%P`: the sender (the phone) and the receiver. */
  from: string;
  to: string;
  /** `%b` decoded by `%C`: the whole message, a long one put together from its parts by Kannel. */
  text: string;
  /** `%c`: 0 GSM 7-bit, 1 8-bit, 2 UCS-2. */
  coding: number;
}

/**
 * A real Kannel (Debian's `kannel`: bearerbox and smsbox, which `npm test` finds or installs and
 * passes as KANNEL_BIN_DIR) bound to smsq's SMPP server as an ESME: its sendsms HTTP interface
 * sends through smsq, its delivery reports and the SMS it receives are recorded here. Every port,
 * the configuration and the logs (Kannel's debug level: every PDU) are its own, in a temporary folder.
 */
export class KannelGateway {
  readonly reports: KannelDeliveryReport[] = [];
  readonly received: KannelReceivedSms[] = [];
  private readonly boxes = new Map<'bearerbox' | 'smsbox', { child: ChildProcess; output: string[] }>();
  private readonly sendsmsUser = { username: 'e2e', password: randomBytes(6).toString('hex') };
  private readonly adminPassword = randomBytes(6).toString('hex');

  private constructor(
    private readonly options: KannelGatewayOptions,
    private readonly dir: string,
    private readonly ports: { admin: number; smsbox: number; sendsms: number },
    private readonly callbacks: { server: Server; url: string },
  ) {}

  /** Starts bearerbox and smsbox; resolves once every bind is online and smsbox takes sendsms requests. */
  static async start(options: KannelGatewayOptions): Promise<KannelGateway> {
    const dir = mkdtempSync(join(tmpdir(), 'smsq-kannel-'));
    const ports = { admin: await freePort(), smsbox: await freePort(), sendsms: await freePort() };
    const gateway = new KannelGateway(options, dir, ports, await startCallbackReceiver((path, query) => gateway.record(path, query)));
    writeFileSync(join(dir, 'kannel.conf'), gateway.configuration());
    try {
      gateway.launch('bearerbox');
      // smsbox gives up at once when bearerbox does not answer yet.
      await gateway.waitFor('bearerbox to answer', async () => void (await gateway.status()));
      gateway.launch('smsbox');
      await gateway.waitFor('the binds and smsbox to be online', async () => {
        const status = await gateway.status();
        const binds = smscStatesOf(status);
        if (binds.some((state) => state === 'dead')) throw new KannelStartFailure(`a bind was refused:\n${status.slice(status.indexOf('SMSC connections:')).trim()}`);
        if (binds.length === 0 || binds.some((state) => state !== 'online')) throw new Error(`binds ${binds.join(', ') || 'missing'}`);
        if (!/smsbox:.*on-line/.test(status)) throw new Error('smsbox not connected');
        await fetch(`http://127.0.0.1:${ports.sendsms}/`);
      });
    } catch (error) {
      await gateway.stop({ keepFiles: true });
      throw new Error(`Kannel did not start: ${(error as Error).message}\n${gateway.recentLogs()}`);
    }
    return gateway;
  }

  /** A sendsms request (smsbox's HTTP interface), as an application using Kannel makes it. */
  async sendSms(sms: KannelSms): Promise<KannelSendAnswer> {
    const ref = randomBytes(6).toString('hex');
    const query = new URLSearchParams({ ...this.sendsmsUser, to: sms.to, text: sms.text, charset: 'UTF-8' });
    if (sms.from !== undefined) query.set('from', sms.from);
    if (sms.coding !== undefined) query.set('coding', String(sms.coding));
    if (sms.dlrMask !== undefined) {
      query.set('dlr-mask', String(sms.dlrMask));
      // Kannel fills the placeholders in; %d type, %F smsq's message_id, %A the receipt's text, %p the phone, %P the sender.
      query.set('dlr-url', sms.dlrUrl ?? `${this.callbacks.url}/dlr?ref=${ref}&type=%d&message-id=%F&answer=%A&phone=%p&sender=%P`);
    }
    if (sms.validityMinutes !== undefined) query.set('validity', String(sms.validityMinutes));
    if (sms.deferredMinutes !== undefined) query.set('deferred', String(sms.deferredMinutes));
    if (sms.priority !== undefined) query.set('priority', String(sms.priority));
    const response = await fetch(`http://127.0.0.1:${this.ports.sendsms}/cgi-bin/sendsms?${query}`);
    return { status: response.status, text: await response.text(), ref };
  }

  /** The reports of one message (by `ref`), in order of arrival. */
  reportsOf(ref: string): KannelDeliveryReport[] {
    return this.reports.filter((report) => report.ref === ref);
  }

  /** bearerbox's status page (`status.txt`): its binds, queues and smsbox. */
  async status(): Promise<string> {
    const response = await fetch(`http://127.0.0.1:${this.ports.admin}/status.txt?password=${this.adminPassword}`);
    if (!response.ok) throw new Error(`status.txt answered ${response.status}`);
    return response.text();
  }

  /** Each bind's state as the status page shows it: `online`, `connecting`, `re-connecting`, `dead`… */
  async smscStates(): Promise<string[]> {
    return smscStatesOf(await this.status());
  }

  /** The boxes' log files (debug level: every PDU dumped) and bearerbox's access log; empty where there is none yet. */
  logs(): { bearerbox: string; smsbox: string; access: string } {
    const read = (file: string) => {
      try {
        return readFileSync(join(this.dir, file), 'utf8');
      } catch {
        return '';
      }
    };
    return { bearerbox: read('bearerbox.log'), smsbox: read('smsbox.log'), access: read('access.log') };
  }

  /** The last lines each box wrote, to say why something failed. */
  recentLogs(lines = 25): string {
    const logs = this.logs();
    const tail = (text: string) => text.trimEnd().split('\n').slice(-lines).join('\n');
    const output = [...this.boxes].map(([box, { output }]) => `--- ${box} (stderr)\n${output.slice(-lines).join('\n')}`);
    return [`--- bearerbox.log (${this.dir})\n${tail(logs.bearerbox)}`, `--- smsbox.log\n${tail(logs.smsbox)}`, ...output].join('\n');
  }

  /** Stops smsbox, then bearerbox (which unbinds), killing either after 10 s; the folder goes with them unless `keepFiles`. */
  async stop(options: { keepFiles?: boolean } = {}): Promise<void> {
    for (const box of ['smsbox', 'bearerbox'] as const) {
      const child = this.boxes.get(box)?.child;
      // No pid: it never started (no such file).
      if (!child || child.pid === undefined || child.exitCode !== null || child.signalCode !== null) continue;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      const stubborn = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(stubborn);
    }
    await new Promise((resolve) => this.callbacks.server.close(resolve));
    if (!options.keepFiles) rmSync(this.dir, { recursive: true, force: true });
  }

  private launch(box: 'bearerbox' | 'smsbox'): void {
    const binDir = process.env['KANNEL_BIN_DIR'] ?? '/usr/sbin';
    // Warnings and worse on stderr; everything, PDUs included, in the box's log file.
    const child = spawn(join(binDir, box), ['-v', '2', join(this.dir, 'kannel.conf')], { cwd: this.dir, stdio: ['ignore', 'pipe', 'pipe'] });
    const output: string[] = [];
    const keep = (chunk: Buffer) => output.push(...chunk.toString('utf8').split('\n').filter(Boolean));
    child.stdout?.on('data', keep);
    child.stderr?.on('data', keep);
    child.on('error', (error) => output.push(`${box} could not start: ${error.message} (npm test installs Kannel; else install the kannel package or set KANNEL_BIN_DIR)`));
    this.boxes.set(box, { child, output });
  }

  /** Polls `check` for up to 30 s, failing at once when a box has exited or the check says it never will. */
  private async waitFor(what: string, check: () => Promise<void>): Promise<void> {
    let fatal: Error | undefined;
    await eventually(
      async () => {
        if (fatal) return;
        const gone = [...this.boxes].find(([, { child }]) => child.exitCode !== null || child.signalCode !== null);
        if (gone) fatal = new Error(`${gone[0]} exited (${gone[1].child.exitCode ?? gone[1].child.signalCode})`);
        try {
          if (!fatal) await check();
        } catch (error) {
          if (error instanceof KannelStartFailure) fatal = error;
          else throw error;
        }
      },
      { timeoutMs: 30_000, intervalMs: 100 },
    ).catch((error: Error) => {
      throw new Error(`waiting for ${what}: ${error.message}`);
    });
    if (fatal) throw fatal;
  }

  private record(path: string, query: Map<string, Buffer>): void {
    const text = (name: string) => query.get(name)?.toString('utf8') ?? '';
    if (path === '/dlr') {
      this.reports.push({ ref: text('ref'), type: Number(text('type')), messageId: text('message-id'), answer: text('answer'), phone: text('phone'), sender: text('sender') });
    } else if (path === '/mo') {
      // Kannel passes the text's bytes as they came (UCS-2 as UTF-16BE) and names their charset.
      const charset = text('charset') || 'UTF-8';
      this.received.push({ from: text('from'), to: text('to'), text: new TextDecoder(charset).decode(query.get('text') ?? Buffer.alloc(0)), coding: Number(text('coding')) });
    }
  }

  private configuration(): string {
    const { smpp, bind = 'transceiver', defaultSender = '12345', enquireLinkSeconds = 30, extra = {} } = this.options;
    const group = (name: string, settings: Record<string, string | number>, more: string[] = []) =>
      [`group = ${name}`, ...Object.entries(settings).map(([key, value]) => `${key} = ${typeof value === 'number' ? value : quoted(value)}`), ...more].join('\n');
    const binds = bind === 'transceiver' ? [{ port: smpp.port, 'transceiver-mode': 'true' }] : [{ port: smpp.port, 'receive-port': 0 }, { port: 0, 'receive-port': smpp.port }];
    return [
      group(
        'core',
        {
          'admin-port': this.ports.admin,
          'admin-interface': '127.0.0.1',
          'admin-password': this.adminPassword,
          'admin-allow-ip': '127.0.0.1',
          'smsbox-port': this.ports.smsbox,
          'box-allow-ip': '127.0.0.1',
          'log-file': join(this.dir, 'bearerbox.log'),
          'log-level': 0,
          'access-log': join(this.dir, 'access.log'),
          // Reports are matched in memory: a restarted Kannel forgets the messages it sent.
          'dlr-storage': 'internal',
        },
        extra.core,
      ),
      ...binds.map((ports) =>
        group(
          'smsc',
          {
            smsc: 'smpp',
            // One id for both binds: a report is matched against the messages of its smsc-id.
            'smsc-id': 'smsq',
            host: smpp.host ?? '127.0.0.1',
            ...ports,
            'smsc-username': smpp.systemId,
            'smsc-password': smpp.password,
            'system-type': '',
            'enquire-link-interval': enquireLinkSeconds,
            // smsq's message_id is the task id in decimal, in submit_sm_resp and in the receipts
            // alike: 0x00 reads both as decimal (0x01–0x03 read one or both as hex, and miss).
            'msg-id-type': '0x00',
            'max-pending-submits': 10,
            'reconnect-delay': 1,
            'dest-addr-ton': 1,
            'dest-addr-npi': 1,
          },
          extra.smsc,
        ),
      ),
      group(
        'smsbox',
        {
          'bearerbox-host': '127.0.0.1',
          'bearerbox-port': this.ports.smsbox,
          'sendsms-port': this.ports.sendsms,
          'sendsms-interface': '127.0.0.1',
          'log-file': join(this.dir, 'smsbox.log'),
          'log-level': 0,
          'access-log': join(this.dir, 'smsbox-access.log'),
        },
        extra.smsbox,
      ),
      // Without concatenation and max-messages Kannel cuts a long text to 160 characters, or sends
      // its pieces as separate SMS; with them, as a concatenated SMS (UDH, 8-bit reference).
      group('sendsms-user', { ...this.sendsmsUser, 'default-sender': defaultSender, concatenation: 'true', 'max-messages': 10 }),
      // Every SMS smsq delivers goes to the receiver; max-messages 0: nothing is sent back.
      // %p sender, %P receiver, %b the text's bytes, %c coding, %C their charset.
      group('sms-service', {
        keyword: 'default',
        'catch-all': 'yes',
        'max-messages': 0,
        'get-url': `${this.callbacks.url}/mo?from=%p&to=%P&text=%b&coding=%c&charset=%C`,
      }),
    ].join('\n\n');
  }
}

/** A failure that waiting longer does not mend. */
class KannelStartFailure extends Error {}

/** A configuration value: quoted, so that an empty one or one with spaces stays whole. */
function quoted(value: string): string {
  if (/["\\\n]/.test(value)) throw new Error(`a Kannel setting cannot hold ${JSON.stringify(value)}`);
  return `"${value}"`;
}

/** The state of each line under "SMSC connections:" (`smsq[smsq] SMPP:…:user: (online 3s, …)`). */
function smscStatesOf(status: string): string[] {
  const section = status.split('SMSC connections:')[1] ?? '';
  return [...section.matchAll(/^\s+\S+\s+SMPP:.*?\((\S+?)[\s,)]/gm)].map((match) => match[1]!);
}

/** Kannel's query string as bytes by name: it %-encodes each byte of a UCS-2 text, which no UTF-8 decoding of the whole query would survive. */
function queryBytes(query: string): Map<string, Buffer> {
  const bytes = (text: string) => Buffer.from(text.replace(/\+/g, ' ').replace(/%([0-9a-fA-F]{2})|[^%]/g, (match) => (match.length === 3 ? String.fromCharCode(parseInt(match.slice(1), 16)) : match)), 'latin1');
  const values = new Map<string, Buffer>();
  for (const pair of query.split('&').filter(Boolean)) {
    const at = pair.indexOf('=');
    values.set(bytes(at < 0 ? pair : pair.slice(0, at)).toString('utf8'), bytes(at < 0 ? '' : pair.slice(at + 1)));
  }
  return values;
}

/** The HTTP receiver of Kannel's dlr-url and get-url requests, each answered 200 with no text (smsbox sends back no reply SMS). */
async function startCallbackReceiver(record: (path: string, query: Map<string, Buffer>) => void): Promise<{ server: Server; url: string }> {
  const server = createServer((request, response) => {
    const url = request.url ?? '/';
    const at = url.indexOf('?');
    record(at < 0 ? url : url.slice(0, at), queryBytes(at < 0 ? '' : url.slice(at + 1)));
    response.writeHead(200, { 'content-type': 'text/plain' }).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}
