import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ReplyCursor } from '../drivers/smsgate/reply-cursor.js';
import { ReplyCursorFile } from '../drivers/termux/reply-cursor-file.js';
import { SendJournal } from '../drivers/termux/send-journal.js';
import { readPairedPhone, writePairedPhone } from '../pairing/paired-phone.js';
import { recordingLog } from '../testing/recording-log.js';
import { isInteger, isString, objectParser, StateFile } from './state-file.js';

interface Sample {
  name: string;
  count: number;
}

describe(StateFile.name, () => {
  let dir: string;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'state-file-'));
  });

  afterEach(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  const sample = (path = join(dir, 'nested', 'sample.json')): StateFile<Sample> => new StateFile(path, objectParser<Sample>({ name: isString, count: isInteger }), 'a sample', 'write another');

  it('writes the value whole, readable by this user only, in a folder of its own, and reads it back checked', () => {
    const sut = sample();

    sut.write({ name: 'a', count: 1 });
    sut.write({ name: 'b', count: 2 });

    expect(sut.read()).toEqual({ name: 'b', count: 2 });
    expect(statSync(sut.path).mode & 0o777).toBe(0o600);
    expect(statSync(join(dir, 'nested')).mode & 0o777).toBe(0o700);
    expect(readdirSync(join(dir, 'nested'))).toEqual(['sample.json']);
  });

  it('reads no file as undefined', () => {
    expect(sample().read()).toBeUndefined();
  });

  it('names the file and the remedy when it is not JSON, or not what it should hold', () => {
    const sut = sample(join(dir, 'sample.json'));

    writeFileSync(sut.path, '{"name": ');
    expect(() => sut.read()).toThrow(`${sut.path} is not JSON; write another`);
    writeFileSync(sut.path, '{"name": "a", "count": "one"}');
    expect(() => sut.read()).toThrow(`${sut.path} is not a sample; write another`);
  });

  it('keeps fields its checks do not name, so a file from a newer or older worker still loads', () => {
    const sut = sample(join(dir, 'sample.json'));
    writeFileSync(sut.path, '{"name": "a", "count": 1, "since": "2026-01-01"}');

    expect(sut.read()).toEqual({ name: 'a', count: 1, since: '2026-01-01' });
  });

  describe('the files an older worker wrote, as it wrote them', () => {
    it('loads the paired phone', () => {
      const phone = { baseUrl: 'https://smsq.example', workerToken: 'smsq_wkr_abc', phoneId: 4, deviceId: 'dev-1', name: 'Kitchen phone', driver: 'smsgate' as const, gatewayUrl: 'http://192.168.1.20:8080', pairedAt: '2026-05-04T10:00:00.000Z' };
      writeFileSync(join(dir, 'phone.json'), `${JSON.stringify(phone, null, 2)}\n`, { mode: 0o600 });

      expect(readPairedPhone(dir)).toEqual(phone);
      writePairedPhone(dir, { ...phone, workerToken: 'smsq_wkr_def' });
      expect(JSON.parse(readFileSync(join(dir, 'phone.json'), 'utf8'))).toEqual({ ...phone, workerToken: 'smsq_wkr_def' });
    });

    it('refuses a paired phone file that is not one, saying to pair again', () => {
      writeFileSync(join(dir, 'phone.json'), '{"baseUrl": "https://smsq.example"}');

      expect(() => readPairedPhone(dir)).toThrow(`${join(dir, 'phone.json')} is not a paired phone; pair again`);
    });

    it('loads the SMSGate reply cursor, with what it had seen and what still waited for smsq', () => {
      const path = join(dir, 'smsgate-replies.json');
      const reply = { from: '+381641234567', message: 'STOP', receivedAt: '2026-05-04T10:00:00.000Z', externalId: 'ext-2' };
      writeFileSync(path, JSON.stringify({ version: 1, inboxFrom: 1_000, seen: { 'ext-1': 2_000, 'ext-0': null }, pending: [reply] }));
      const { log, logger } = recordingLog();

      const sut = ReplyCursor.open(path, log, 9_999);

      expect(sut.inboxFrom).toBe(1_000);
      expect(sut.knows('ext-1')).toBe(true);
      expect(sut.pending).toEqual([reply]);
      expect(logger.lines).toEqual([]);
    });

    it('starts the SMSGate reply cursor from now, with a warning, when the file is not one', () => {
      const path = join(dir, 'smsgate-replies.json');
      writeFileSync(path, JSON.stringify({ version: 2, inboxFrom: 1_000, seen: {}, pending: [] }));
      const { log, logger } = recordingLog();

      const sut = ReplyCursor.open(path, log, 9_999);

      expect(sut.inboxFrom).toBe(9_999);
      expect(logger.lines.join('\n')).toContain('smsgate reply state unreadable; replies start from now');
      expect(JSON.parse(readFileSync(path, 'utf8'))).toEqual({ version: 1, inboxFrom: 9_999, seen: {}, pending: [] });
    });

    it('loads the Termux reply cursor', () => {
      const path = join(dir, 'termux-replies.json');
      writeFileSync(path, '{\n  "lastInboxId": 42\n}\n');

      expect(new ReplyCursorFile(path).read()).toBe(42);
      writeFileSync(path, '{"lastInboxId": "42"}');
      expect(() => new ReplyCursorFile(path).read()).toThrow(`${path} is not a termux reply cursor (no lastInboxId); delete it to start afresh`);
    });

    it('loads the Termux send journal, its entries with and without an outcome', () => {
      const path = join(dir, 'termux-journal.json');
      const now = Date.now();
      const sent = { taskId: 7, messageKey: 'smsq-7-20260504100000', baselineId: 120, startedAt: now - 1_000, command: 'accepted', claimedId: 121, outcome: { status: 'sent', delivered: false, messageId: '121' } };
      const refused = { taskId: 8, messageKey: 'smsq-8-20260504100000', baselineId: null, startedAt: now - 500, command: 'refused' as const, error: 'termux-sms-send: Please grant the following permission' };
      writeFileSync(path, JSON.stringify({ version: 1, entries: [sent, refused] }));

      const sut = new SendJournal(path);

      expect(sut.find({ taskId: 7, messageKey: 'smsq-7-20260504100000' }, now)).toEqual(sent);
      expect(sut.find({ taskId: 8, messageKey: 'smsq-8-20260504100000' }, now)).toEqual(refused);
      expect(sut.claimedIds(refused)).toEqual(new Set([121]));
    });

    it('refuses a Termux send journal with an entry it cannot trust', () => {
      const path = join(dir, 'termux-journal.json');
      writeFileSync(path, JSON.stringify({ version: 1, entries: [{ taskId: 7, messageKey: 'smsq-7', baselineId: null, startedAt: Date.now(), command: 'sending' }] }));

      expect(() => new SendJournal(path).find({ taskId: 7, messageKey: 'smsq-7' })).toThrow(`${path} is not a termux send journal; delete it to start afresh`);
    });
  });
});
