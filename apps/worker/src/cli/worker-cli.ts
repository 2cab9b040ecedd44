import { reasonOf } from '../http/http-answers.js';
import { parseArgs } from 'node:util';
import { loadConfigOrExit } from '@smsq/platform/env';
import { readWorkerConfig } from '../config/worker-config.js';
import { checkedPassphrase, lookUpPassphrase, passphraseFromFile, type PassphraseLookup } from '../encryption/worker-passphrase.js';
import { Worker } from '../worker.js';
import { consoleSink } from '../logging/console-sink.js';
import { WorkerLog } from '../logging/worker-log.js';
import { defaultStateDir, DRIVERS, readPairedPhone, type DriverName } from '../pairing/paired-phone.js';
import { pairPhone, PairingError } from '../pairing/pair-phone.js';
import { stopOnSignals } from '../shutdown/stop-on-signals.js';
import { askNewPassphrase, PassphraseEntryError } from './passphrase-prompt.js';

type Env = Record<string, string | undefined>;
interface Output {
  out(line: string): void;
  err(line: string): void;
  /** `pair --passphrase`: the client's passphrase, asked without echo (or read from standard input). */
  askPassphrase?(): Promise<string>;
}

const USAGE = `smsq-worker: delivers smsq's SMS through a phone (docs/guide/phones.md)

  smsq-worker pair '<text of the dashboard QR code>' --driver smsgate --gateway-url http://192.168.1.20:8080 [--name "Office phone"]
  smsq-worker pair '<text of the dashboard QR code>' --driver termux          (on the phone, in Termux)
  smsq-worker run                                                              (the default command)

pair options: --driver smsgate|termux|http, --gateway-url URL, --name NAME, --device-id ID,
              --base-url URL --api-key KEY (instead of the QR text), --state-dir DIR,
              --passphrase (asked, not shown) or --passphrase-file FILE: the passphrase of
              encrypted messages, kept in the state folder for run (it never goes to smsq)
run reads the paired phone from the state folder (WORKER_STATE_DIR, default ~/.smsq-worker), or
WORKER_TOKEN and SMSQ_BASE_URL; SMSGate's login from SMSGATE_USER and SMSGATE_PASSWORD; the
passphrase from WORKER_PASSPHRASE or WORKER_PASSPHRASE_FILE, else the state folder.`;

/** `pair`, `run` or `help`; resolves with the exit code. */
export async function runWorkerCli(argv: string[], env: Env, io: Output = consoleOutput): Promise<number> {
  const [command = 'run', ...rest] = argv;
  switch (command) {
    case 'pair':
      return pair(rest, env, io);
    case 'run':
      return run(rest, env, io);
    case 'help':
    case '--help':
    case '-h':
      io.out(USAGE);
      return 0;
    default:
      io.err(`unknown command ${JSON.stringify(command)}\n\n${USAGE}`);
      return 64;
  }
}

async function pair(argv: string[], env: Env, io: Output): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        driver: { type: 'string' },
        'gateway-url': { type: 'string' },
        name: { type: 'string' },
        'device-id': { type: 'string' },
        'base-url': { type: 'string' },
        'api-key': { type: 'string' },
        'state-dir': { type: 'string' },
        passphrase: { type: 'boolean' },
        'passphrase-file': { type: 'string' },
      },
    });
  } catch (error) {
    io.err(`${(error as Error).message}\n\n${USAGE}`);
    return 64;
  }
  const { values, positionals } = parsed;
  const driver = (values.driver ?? env['WORKER_DRIVER'] ?? (isTermux(env) ? 'termux' : 'smsgate')) as DriverName;
  if (!DRIVERS.includes(driver)) {
    io.err(`--driver must be one of ${DRIVERS.join(', ')}`);
    return 64;
  }
  const stateDir = values['state-dir'] ?? defaultStateDir(env);
  // Asked before smsq is: a passphrase refused must not leave the token rotated.
  let passphrase: PassphraseLookup | undefined;
  try {
    passphrase = await pairingPassphrase(values.passphrase === true, values['passphrase-file'], io);
  } catch (error) {
    io.err(`pairing failed: ${reasonOf(error)}`);
    return error instanceof PassphraseEntryError ? 64 : 70;
  }
  if (passphrase?.problems.length) {
    io.err(`pairing failed: ${passphrase.problems.join('; ')}`);
    return 64;
  }
  try {
    const paired = await pairPhone({
      ...(positionals.length > 0 ? { code: positionals.join(' ') } : {}),
      ...optional('baseUrl', values['base-url']),
      ...optional('apiKey', values['api-key']),
      ...optional('name', values.name),
      ...optional('gatewayUrl', values['gateway-url']),
      ...optional('deviceId', values['device-id']),
      driver,
      stateDir,
      ...(passphrase?.found === undefined ? {} : { passphrase: passphrase.found.text }),
    });
    for (const warning of paired.warnings) io.err(`warning: ${warning}`);
    const { phone } = paired;
    io.out(`Paired with smsq at ${phone.baseUrl}: phone ${phone.phoneId} "${phone.name}" (device ${phone.deviceId}), driver ${phone.driver}.`);
    io.out(`The worker token is in ${paired.file}, readable by you only. Pairing again rotates it.`);
    if (paired.passphraseFile) io.out(`The passphrase of encrypted messages is in ${paired.passphraseFile}, readable by you only; it never goes to smsq.`);
    io.out(`Start delivering: ${phone.driver === 'smsgate' ? 'SMSGATE_USER=… SMSGATE_PASSWORD=… ' : ''}node smsq-worker.mjs run${values['state-dir'] ? ` (with WORKER_STATE_DIR=${stateDir})` : ''}`);
    return 0;
  } catch (error) {
    io.err(`pairing failed: ${reasonOf(error)}`);
    return error instanceof PairingError ? 1 : 70;
  }
}

async function run(argv: string[], env: Env, io: Output): Promise<number> {
  if (argv.length > 0) {
    io.err(`run takes no arguments; it is configured by the environment\n\n${USAGE}`);
    return 64;
  }
  let paired;
  try {
    paired = env['WORKER_TOKEN'] ? undefined : readPairedPhone(defaultStateDir(env));
  } catch (error) {
    io.err((error as Error).message);
    return 78;
  }
  const passphrase = lookUpPassphrase(env, defaultStateDir(env));
  // Read once; the programs the worker starts (Termux:API's) need not inherit it.
  delete env['WORKER_PASSPHRASE'];
  const config = loadConfigOrExit((reader) => readWorkerConfig(reader, paired, passphrase), env);
  const log = new WorkerLog(consoleSink(config.logFormat), config.logFormat);
  const worker = new Worker(config, log);
  const removeHandlers = stopOnSignals(worker, log);
  log.info('started', { ...worker.describe(), ...(paired ? { phone: paired.phoneId } : {}) });
  await worker.run();
  removeHandlers();
  return 0;
}

/** The passphrase `pair` keeps: asked (`--passphrase`) or read from a file (`--passphrase-file`); undefined when neither is given. */
async function pairingPassphrase(ask: boolean, file: string | undefined, io: Output): Promise<PassphraseLookup | undefined> {
  if (ask && file !== undefined) throw new PassphraseEntryError('give --passphrase or --passphrase-file, not both');
  if (file !== undefined) return passphraseFromFile(file, '--passphrase-file');
  if (!ask) return undefined;
  return checkedPassphrase(await (io.askPassphrase ?? askNewPassphrase)(), '--passphrase');
}

function optional<K extends string>(key: K, value: string | undefined): Partial<Record<K, string>> {
  return value === undefined ? {} : ({ [key]: value } as Record<K, string>);
}

/** Termux sets PREFIX to its own folder. */
function isTermux(env: Env): boolean {
  return (env['PREFIX'] ?? '').includes('com.termux');
}

const consoleOutput: Output = {
  out: (line) => process.stdout.write(`${line}\n`),
  err: (line) => process.stderr.write(`${line}\n`),
};
