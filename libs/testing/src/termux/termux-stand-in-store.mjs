// Shared by the Termux:API stand-ins (termux-sms-send, termux-sms-list, termux-battery-status).
// Their state lives in the directory named by TERMUX_STANDIN_DIR:
//   sms.json     { nextId, messages: [{ _id, threadid, type, read, address, date, body, queuedUntil? }] }
//                type as Android's Telephony.TextBasedSmsColumns: 1 inbox, 2 sent, 3 draft, 4 outbox, 5 failed, 6 queued;
//                a message with queuedUntil lists as outbox until that instant (epoch ms).
//   control.json { send?: { outcome?: 'sent'|'failed'|'silent'|'hang'|'permission-denied', queuedForMs?, thenHang? },
//                  (thenHang: the SMS goes as outcome says, then the program hangs as without the app)
//                  simSlots?: number[], battery?: object|'hang', list?: 'hang'|{ error }|{ format: 'without-ids' } }
//   calls.jsonl  one line per run: { program, argv, stdin, at, pid }
//   hung.json    { pids } of a run told to hang, the stand-in and the `termux-api` it started
import { spawn } from 'node:child_process';
import { appendFileSync, existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const TYPE_NAMES = { 1: 'inbox', 2: 'sent', 3: 'draft', 4: 'outbox', 5: 'failed', 6: '' };

export function stateDir() {
  const dir = process.env.TERMUX_STANDIN_DIR;
  if (!dir) {
    process.stderr.write('TERMUX_STANDIN_DIR is not set: the Termux:API stand-ins keep their state there\n');
    process.exit(2);
  }
  return dir;
}

export function readJson(name, fallback) {
  const path = join(stateDir(), name);
  return existsSync(path) ? JSON.parse(readFileSync(path, 'utf8')) : fallback;
}

export function writeJson(name, value) {
  const path = join(stateDir(), name);
  writeFileSync(`${path}.${process.pid}.tmp`, JSON.stringify(value, null, 2));
  renameSync(`${path}.${process.pid}.tmp`, path);
}

export function control() {
  return readJson('control.json', {});
}

export function recordCall(program, stdin) {
  appendFileSync(join(stateDir(), 'calls.jsonl'), `${JSON.stringify({ program, argv: process.argv.slice(2), stdin, at: Date.now(), pid: process.pid })}\n`);
}

export function readStore() {
  return readJson('sms.json', { nextId: 1, messages: [] });
}

/** Adds messages as the SMS provider would; the ids grow like its INTEGER PRIMARY KEY. */
export function addMessages(entries) {
  const store = readStore();
  const threads = new Map(store.messages.map((message) => [message.address, message.threadid]));
  const added = entries.map((entry) => {
    const threadid = threads.get(entry.address) ?? Math.max(0, ...threads.values()) + 1;
    threads.set(entry.address, threadid);
    const message = { _id: store.nextId++, threadid, read: entry.type !== 1, date: Date.now(), ...entry };
    store.messages.push(message);
    return message;
  });
  writeJson('sms.json', store);
  return added;
}

export function effectiveType(message, now = Date.now()) {
  return message.queuedUntil !== undefined && now < message.queuedUntil ? 4 : message.type;
}

/** SimpleDateFormat("yyyy-MM-dd HH:mm:ss") in the default (local) time zone. */
export function formatLocal(ms) {
  const date = new Date(ms);
  const two = (value) => String(value).padStart(2, '0');
  return `${date.getFullYear()}-${two(date.getMonth() + 1)}-${two(date.getDate())} ${two(date.getHours())}:${two(date.getMinutes())}:${two(date.getSeconds())}`;
}

/** POSIX getopts with a leading `:` as the scripts use it: `-ab`, `-n123` and `-n 123` all work. */
export function getopts(argv, spec) {
  const options = [];
  let index = 0;
  for (; index < argv.length; index++) {
    const word = argv[index];
    if (word === '--') {
      index++;
      break;
    }
    if (!word.startsWith('-') || word === '-') break;
    for (let at = 1; at < word.length; at++) {
      const letter = word[at];
      const position = spec.indexOf(letter);
      if (letter === ':' || position < 0) return { error: `illegal option -${letter}` };
      if (spec[position + 1] !== ':') {
        options.push([letter, undefined]);
        continue;
      }
      const value = at + 1 < word.length ? word.slice(at + 1) : argv[++index];
      if (value === undefined) return { error: `illegal option -${letter}` };
      options.push([letter, value]);
      break;
    }
  }
  return { options, rest: argv.slice(index) };
}

/** What the `termux-api` binary does when the Termux:API app is missing: wait for ever. */
export function hangForever() {
  const helper = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1 << 30)'], { stdio: 'ignore' });
  writeJson('hung.json', { pids: [process.pid, helper.pid] });
  setInterval(() => {}, 1 << 30);
}

export function printJson(value) {
  // Android's JsonWriter with setIndent("  "), then a newline.
  process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
}
