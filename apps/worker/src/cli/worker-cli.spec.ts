import { mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { StandInServer } from '../testing/stand-in-server.js';
import { PassphraseEntryError } from './passphrase-prompt.js';
import { runWorkerCli } from './worker-cli.js';

describe(runWorkerCli.name, () => {
  let smsq: StandInServer | undefined;
  const output = (askPassphrase?: () => Promise<string>): { out: string[]; err: string[]; io: { out(line: string): void; err(line: string): void; askPassphrase?(): Promise<string> } } => {
    const out: string[] = [];
    const err: string[] = [];
    return { out, err, io: { out: (line) => out.push(line), err: (line) => err.push(line), ...(askPassphrase ? { askPassphrase } : {}) } };
  };

  afterEach(async () => {
    await smsq?.close();
  });

  it('pairs, says where the token is, and how to start', async () => {
    smsq = await StandInServer.start({ 'POST /smsapi/register-phone': () => ({ status: 201, body: { ok: true, phone_id: 5, worker_token: 'smsq_wkr_x' } }) });
    const { out, io } = output();
    const stateDir = mkdtempSync(join(tmpdir(), 'cli-'));

    const code = await runWorkerCli(['pair', JSON.stringify({ base_url: smsq.url, api_key: 'smsq_key_x' }), '--driver', 'termux', '--name', 'My phone'], { WORKER_STATE_DIR: stateDir }, io);

    expect(code).toBe(0);
    expect(out.join('\n')).toContain('phone 5 "My phone"');
    expect(out.join('\n')).toContain(join(stateDir, 'phone.json'));
    expect(out.join('\n')).toContain('node smsq-worker.mjs run');
  });

  it("prints smsq's refusal as advice and exits 1", async () => {
    smsq = await StandInServer.start({ 'POST /smsapi/register-phone': () => ({ status: 404, body: { error: 'not_found', detail: 'phones are registered only in Profile A' } }) });
    const { err, io } = output();

    const code = await runWorkerCli(['pair', JSON.stringify({ base_url: smsq.url, api_key: 'smsq_key_x' }), '--driver', 'termux'], { WORKER_STATE_DIR: mkdtempSync(join(tmpdir(), 'cli-')) }, io);

    expect(code).toBe(1);
    expect(err).toEqual([expect.stringMatching(/^pairing failed: this smsq does not pair phones .*WORKER_TOKEN$/)]);
  });

  it('refuses an unknown driver and an unknown command with the usage', async () => {
    const driver = output();
    const command = output();

    expect(await runWorkerCli(['pair', '{}', '--driver', 'carrier-pigeon'], {}, driver.io)).toBe(64);
    expect(await runWorkerCli(['send'], {}, command.io)).toBe(64);

    expect(driver.err.join('\n')).toContain('--driver must be one of http, smsgate, termux');
    expect(command.err.join('\n')).toContain('unknown command "send"');
  });

  describe('pair with the passphrase of encrypted messages', () => {
    const PASSPHRASE = ' five random words, exactly ';
    const registered = () => ({ 'POST /smsapi/register-phone': () => ({ status: 201, body: { ok: true, phone_id: 5, worker_token: 'smsq_wkr_x' } }) });
    const code = () => JSON.stringify({ base_url: smsq!.url, api_key: 'smsq_key_x' });
    const stored = (stateDir: string) => JSON.parse(readFileSync(join(stateDir, 'passphrase.json'), 'utf8')) as { passphrase: string };

    it('keeps the passphrase asked for (--passphrase) in the state folder, readable by this user only, and never prints it', async () => {
      smsq = await StandInServer.start(registered());
      const { out, err, io } = output(async () => PASSPHRASE);
      const stateDir = mkdtempSync(join(tmpdir(), 'cli-'));

      const exit = await runWorkerCli(['pair', code(), '--driver', 'termux', '--passphrase'], { WORKER_STATE_DIR: stateDir }, io);

      expect(exit).toBe(0);
      expect(stored(stateDir).passphrase).toBe(PASSPHRASE);
      expect(statSync(join(stateDir, 'passphrase.json')).mode & 0o777).toBe(0o600);
      expect(out.join('\n')).toContain(`The passphrase of encrypted messages is in ${join(stateDir, 'passphrase.json')}, readable by you only`);
      expect([...out, ...err].join('\n')).not.toContain(PASSPHRASE.trim());
      // It never goes to smsq.
      expect(JSON.stringify(smsq.requests.map((request) => [request.body, request.headers]))).not.toContain(PASSPHRASE.trim());
    });

    it('reads it from --passphrase-file, its final line break dropped', async () => {
      smsq = await StandInServer.start(registered());
      const stateDir = mkdtempSync(join(tmpdir(), 'cli-'));
      const file = join(stateDir, 'given.txt');
      writeFileSync(file, `${PASSPHRASE}\n`);

      expect(await runWorkerCli(['pair', code(), '--driver', 'termux', '--passphrase-file', file], { WORKER_STATE_DIR: stateDir }, output().io)).toBe(0);

      expect(stored(stateDir).passphrase).toBe(PASSPHRASE);
    });

    it('pairs nothing when the passphrase cannot be taken: typed twice differently, empty, or given both ways', async () => {
      smsq = await StandInServer.start(registered());
      const stateDir = mkdtempSync(join(tmpdir(), 'cli-'));
      const mistyped = output(async () => Promise.reject(new PassphraseEntryError('the two passphrases typed differ')));
      const empty = output(async () => '');
      const both = output(async () => PASSPHRASE);

      expect(await runWorkerCli(['pair', code(), '--driver', 'termux', '--passphrase'], { WORKER_STATE_DIR: stateDir }, mistyped.io)).toBe(64);
      expect(await runWorkerCli(['pair', code(), '--driver', 'termux', '--passphrase'], { WORKER_STATE_DIR: stateDir }, empty.io)).toBe(64);
      expect(await runWorkerCli(['pair', code(), '--driver', 'termux', '--passphrase', '--passphrase-file', 'x'], { WORKER_STATE_DIR: stateDir }, both.io)).toBe(64);

      expect(mistyped.err).toEqual(['pairing failed: the two passphrases typed differ']);
      expect(empty.err).toEqual(['pairing failed: --passphrase: it is empty; a passphrase cannot be empty']);
      expect(both.err).toEqual(['pairing failed: give --passphrase or --passphrase-file, not both']);
      expect(smsq.requests).toEqual([]);
    });
  });
});
