import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { StandInServer } from '../testing/stand-in-server.js';
import { runWorkerCli } from './worker-cli.js';

describe(runWorkerCli.name, () => {
  let smsq: StandInServer | undefined;
  const output = (): { out: string[]; err: string[]; io: { out(line: string): void; err(line: string): void } } => {
    const out: string[] = [];
    const err: string[] = [];
    return { out, err, io: { out: (line) => out.push(line), err: (line) => err.push(line) } };
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
});
