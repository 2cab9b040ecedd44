import { chmod, mkdtemp, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { existsSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** This folder: the stand-in programs, put first on PATH. */
const PROGRAMS_DIR = dirname(fileURLToPath(import.meta.url));
const PROGRAMS = ['termux-sms-send', 'termux-sms-list', 'termux-battery-status'];

/** What the stand-ins do next (termux-stand-in-store.mjs describes the files). */
export interface StandInControl {
  /** `thenHang`: the SMS goes as `outcome` says, then the program never answers (the app got the broadcast, `termux-api` never hears back). */
  send?: { outcome?: 'sent' | 'failed' | 'silent' | 'hang' | 'permission-denied'; queuedForMs?: number; thenHang?: boolean };
  simSlots?: number[];
  battery?: Record<string, unknown> | 'hang';
  /** `without-ids`: as Termux:API versions that printed neither `_id` nor `address`. */
  list?: 'hang' | { error: string } | { format: 'without-ids' };
}

export interface StandInCall {
  program: string;
  argv: string[];
  /** What it read on standard input; null when it took the text from its arguments or reads none. */
  stdin: string | null;
  at: number;
  pid: number;
}

/** A message in the stand-ins' SMS store; `type` as Android numbers them (1 inbox, 2 sent, 4 outbox, 5 failed). */
export interface StoredSms {
  _id: number;
  threadid: number;
  type: number;
  read: boolean;
  address: string;
  date: number;
  body: string;
  queuedUntil?: number;
}

interface Store {
  nextId: number;
  messages: StoredSms[];
}

/** The Termux:API programs imitated in a temporary folder, for drivers run as on the phone. */
export class TermuxStandIns {
  private constructor(
    readonly dir: string,
    readonly env: NodeJS.ProcessEnv,
  ) {}

  static async start(): Promise<TermuxStandIns> {
    await Promise.all(PROGRAMS.map((program) => chmod(join(PROGRAMS_DIR, program), 0o755)));
    const dir = await mkdtemp(join(tmpdir(), 'termux-stand-in-'));
    const env = { ...process.env, TERMUX_STANDIN_DIR: dir, PATH: [PROGRAMS_DIR, dirname(process.execPath), process.env.PATH ?? ''].join(delimiter) };
    return new TermuxStandIns(dir, env);
  }

  async control(control: StandInControl): Promise<void> {
    await this.writeJson('control.json', control);
  }

  /** Messages that arrived on the phone, in this order; their ids. */
  async receive(...messages: { from: string; body: string; at?: Date }[]): Promise<number[]> {
    const store = await this.store();
    const ids = messages.map(({ from, body, at }) => {
      const thread = store.messages.find((message) => message.address === from)?.threadid ?? Math.max(0, ...store.messages.map((message) => message.threadid)) + 1;
      const message: StoredSms = { _id: store.nextId++, threadid: thread, type: 1, read: false, address: from, date: (at ?? new Date()).getTime(), body };
      store.messages.push(message);
      return message._id;
    });
    await this.writeJson('sms.json', store);
    return ids;
  }

  async messages(): Promise<StoredSms[]> {
    return (await this.store()).messages;
  }

  calls(program?: string): StandInCall[] {
    const path = join(this.dir, 'calls.jsonl');
    if (!existsSync(path)) return [];
    const calls = readFileSync(path, 'utf8')
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => JSON.parse(line) as StandInCall);
    return program === undefined ? calls : calls.filter((call) => call.program === program);
  }

  /** The processes a run told to hang started: the stand-in and the `termux-api` under it. */
  hungPids(): number[] {
    const path = join(this.dir, 'hung.json');
    return existsSync(path) ? (JSON.parse(readFileSync(path, 'utf8')) as { pids: number[] }).pids : [];
  }

  /** Kills what a run told to hang started, as the worker would on its timeout; for a worker that was killed first. */
  killHung(): void {
    for (const pid of this.hungPids()) {
      try {
        // Only a process of these stand-ins: the pid of one that ended long ago may belong to another by now.
        if (readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0').includes(`TERMUX_STANDIN_DIR=${this.dir}`)) process.kill(pid, 'SIGKILL');
      } catch {
        // already gone, or no /proc to tell whose it is
      }
    }
  }

  async close(): Promise<void> {
    this.killHung();
    await rm(this.dir, { recursive: true, force: true });
  }

  private async store(): Promise<Store> {
    const path = join(this.dir, 'sms.json');
    return existsSync(path) ? (JSON.parse(await readFile(path, 'utf8')) as Store) : { nextId: 1, messages: [] };
  }

  private async writeJson(name: string, value: unknown): Promise<void> {
    const path = join(this.dir, name);
    await writeFile(`${path}.tmp`, JSON.stringify(value, null, 2));
    await rename(`${path}.tmp`, path);
  }
}

/** Whether a process still runs (a zombie left for a reaper counts as ended). */
export function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return !existsSync('/proc/self');
  }
}
