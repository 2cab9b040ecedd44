import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { StandInServer } from '../testing/stand-in-server.js';
import { pairedPhoneFile, readPairedPhone } from './paired-phone.js';
import { pairPhone, PairingError } from './pair-phone.js';

const REGISTER = 'POST /smsapi/register-phone';
const API_KEY = 'smsq_key_PairingKeyForTheStandIn0123456789';

describe(pairPhone.name, () => {
  let smsq: StandInServer;
  let issued = 0;

  async function standInSmsq(answer?: { status: number; body: unknown }): Promise<StandInServer> {
    issued = 0;
    smsq = await StandInServer.start({ [REGISTER]: () => answer ?? { status: 201, body: { ok: true, phone_id: 4, worker_token: `smsq_wkr_issued_${++issued}` } } });
    return smsq;
  }

  function code(baseUrl: string): string {
    return JSON.stringify({ base_url: baseUrl, api_key: API_KEY });
  }

  afterEach(async () => {
    await smsq?.close();
  });

  it('registers the phone with the QR code\'s key and keeps the token in a file only its user can read', async () => {
    await standInSmsq();
    const stateDir = join(mkdtempSync(join(tmpdir(), 'pair-')), 'state');

    const sut = await pairPhone({ code: code(smsq.url), driver: 'smsgate', gatewayUrl: 'http://192.168.1.20:8080', name: 'Office phone', stateDir });

    const [request] = smsq.requestsTo(REGISTER);
    expect(request?.headers['x-api-key']).toBe(API_KEY);
    expect(request?.body).toEqual({ name: 'Office phone', device_id: sut.phone.deviceId, url: 'http://192.168.1.20:8080' });
    expect(sut.file).toBe(pairedPhoneFile(stateDir));
    expect(statSync(sut.file).mode & 0o777).toBe(0o600);
    expect(statSync(stateDir).mode & 0o777).toBe(0o700);
    expect(readPairedPhone(stateDir)).toMatchObject({ baseUrl: smsq.url, workerToken: 'smsq_wkr_issued_1', phoneId: 4, driver: 'smsgate', gatewayUrl: 'http://192.168.1.20:8080' });
    // The API key is needed only to pair; it is not kept.
    expect(readFileSync(sut.file, 'utf8')).not.toContain(API_KEY);
  });

  it('pairs again as the same device, so smsq rotates the token of the same phone', async () => {
    await standInSmsq();
    const stateDir = mkdtempSync(join(tmpdir(), 'pair-'));

    const first = await pairPhone({ code: code(smsq.url), driver: 'termux', stateDir });
    const second = await pairPhone({ code: code(smsq.url), driver: 'termux', stateDir });

    const deviceIds = smsq.requestsTo(REGISTER).map((request) => (request.body as { device_id: string }).device_id);
    expect(deviceIds).toEqual([first.phone.deviceId, first.phone.deviceId]);
    expect(second.phone.workerToken).toBe('smsq_wkr_issued_2');
    expect(readPairedPhone(stateDir)?.workerToken).toBe('smsq_wkr_issued_2');
    // A phone running the worker itself has no gateway address to register.
    expect(smsq.requestsTo(REGISTER)[0]?.body).not.toHaveProperty('url');
  });

  it('says what is wrong with a pairing code that is not the QR code\'s text', async () => {
    const stateDir = mkdtempSync(join(tmpdir(), 'pair-'));

    await expect(pairPhone({ code: 'smsq_key_abc', driver: 'termux', stateDir })).rejects.toThrow(/not the text of the dashboard's QR code/);
    await expect(pairPhone({ code: '{"base_url": "ftp://x", "api_key": "k"}', driver: 'termux', stateDir })).rejects.toThrow(/no usable base_url/);
    await expect(pairPhone({ code: '{"base_url": "https://sms.example"}', driver: 'termux', stateDir })).rejects.toThrow(/no api_key/);
  });

  it('needs the phone\'s address for SMSGate', async () => {
    await expect(pairPhone({ code: code('https://sms.example'), driver: 'smsgate', stateDir: mkdtempSync(join(tmpdir(), 'pair-')) })).rejects.toThrow(/--gateway-url/);
  });

  it.each([
    [401, { error: 'unauthorized' }, /refused the API key/],
    [403, { error: 'phone_limit_reached', detail: 'the plan allows 2 phones' }, /phone_limit_reached: the plan allows 2 phones/],
    [404, { error: 'not_found' }, /Profile B/],
  ])('turns smsq\'s %i into advice, and keeps no file', async (status, body, advice) => {
    await standInSmsq({ status, body });
    const stateDir = mkdtempSync(join(tmpdir(), 'pair-'));

    const pairing = pairPhone({ code: code(smsq.url), driver: 'termux', stateDir });

    await expect(pairing).rejects.toThrow(PairingError);
    await expect(pairing).rejects.toThrow(advice);
    expect(readPairedPhone(stateDir)).toBeUndefined();
  });

  it('warns that a loopback address in the QR code cannot be reached from a phone', async () => {
    await standInSmsq();

    const sut = await pairPhone({ code: code(smsq.url), driver: 'termux', stateDir: mkdtempSync(join(tmpdir(), 'pair-')) });

    expect(sut.warnings.join('\n')).toMatch(/loopback address.*DASHBOARD_PUBLIC_API_URL/);
  });
});
