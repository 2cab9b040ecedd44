import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '@smsq/platform/env';
import { readWorkerConfig } from '../config/worker-config.js';
import { createCommandRunner } from '../drivers/termux/command-runner.js';
import { TermuxDriver } from '../drivers/termux/termux-driver.js';
import { recordingLog } from '../testing/recording-log.js';
import { StandInServer } from '../testing/stand-in-server.js';
import { TermuxStandIns, until } from '@smsq/testing';
import { FAST_TIMINGS, pendingTask, POLL, pollAnswers, REPORT, TOKEN } from '../testing/worker-harness.js';
import { Worker } from '../worker.js';

const INBOUND = 'POST /smsapi/inbound';
const HEALTH = 'POST /smsapi/phone-health';

/** The whole worker as it runs under Termux: smsq stands in over HTTP, Termux:API's programs on PATH. */
describe('the worker on a phone, through Termux', () => {
  let smsq: StandInServer;
  let phone: TermuxStandIns;
  let sut: Worker;
  let running: Promise<void>;
  /** When the worker handed each SMS to the driver. */
  let handedOver: number[];

  async function startWorker(env: Record<string, string>, tasks: number): Promise<void> {
    smsq = await StandInServer.start({
      [POLL]: pollAnswers(...Array.from({ length: tasks }, (_, index) => ({ status: 200, body: pendingTask(null, { id: index + 1, message: `SMS number ${index + 1}` }) }))),
      [REPORT]: () => ({ status: 200, body: { ok: true } }),
      [INBOUND]: () => ({ status: 201, body: { ok: true, stored: 1, duplicates: 0 } }),
      [HEALTH]: () => ({ status: 200, body: { ok: true } }),
    });
    phone = await TermuxStandIns.start();
    const stateDir = mkdtempSync(join(tmpdir(), 'worker-state-'));
    const config = { ...loadConfig(readWorkerConfig, { WORKER_TOKEN: TOKEN, SMSQ_BASE_URL: smsq.url, WORKER_WAIT_S: '1', WORKER_DRIVER: 'termux', WORKER_STATE_DIR: stateDir, ...env }), timings: FAST_TIMINGS };
    const { log } = recordingLog();
    const driver = new TermuxDriver({ commandTimeoutMs: 5_000, confirmWindowMs: 2_000, pollIntervalMs: 50, stateFile: join(stateDir, 'termux-replies.json'), log, run: createCommandRunner(phone.env), ...(config.simNumber ? { simSlot: config.simNumber - 1 } : {}) });
    handedOver = [];
    const send = driver.send.bind(driver);
    driver.send = (sms, signal) => {
      handedOver.push(Date.now());
      return send(sms, signal);
    };
    sut = new Worker(config, log, driver, () => 0.5);
    running = sut.run();
  }

  afterEach(async () => {
    sut?.stop();
    await running;
    await Promise.all([smsq?.close(), phone?.close()]);
  });

  it('paces the phone\'s sends: the stand-in records them a slot apart, each from the chosen SIM', async () => {
    await startWorker({ WORKER_SENDS_PER_MINUTE: '40', WORKER_SEND_JITTER_MS: '200', WORKER_SIM: '2' }, 3);

    await smsq.waitForRequest(REPORT, 3);

    const sends = phone.calls('termux-sms-send');
    expect(sends.map((send) => send.stdin)).toEqual(['SMS number 1', 'SMS number 2', 'SMS number 3']);
    expect(sends.every((send) => send.argv.join(' ') === '-n +381641234567 -s 1')).toBe(true);
    // 40 a minute is one every 1,500 ms, plus half of the 200 ms of jitter (the random source says 0.5):
    // 1,600 ms between hand-overs to the driver; unpaced, the three would go out within a second. Measured
    // at the hand-over, not where the stand-in records the send: the driver starts a Node program or two
    // before each send, and on a busy machine how long that takes varies by more than the slot's margin.
    const gaps = handedOver.slice(1).map((at, index) => at - handedOver[index]!);
    expect(gaps).toHaveLength(2);
    for (const gap of gaps) expect(gap).toBeGreaterThanOrEqual(1_600 - 50);
    expect(smsq.requestsTo(REPORT).map((report) => report.body)).toEqual([1, 2, 3].map((id) => ({ id, status: 'sent', next: true })));
  });

  it('passes new replies from the phone\'s inbox to smsq once, and its battery', async () => {
    await startWorker({ WORKER_HEALTH_INTERVAL_S: '1' }, 0);
    await smsq.waitForRequest(HEALTH);
    // The first look at the inbox only notes where it ends: the phone's history is not uploaded.
    await until(() => phone.calls('termux-sms-list').length > 0);
    const [id] = await phone.receive({ from: '+381647654321', body: 'Thanks, got it' });

    const inbound = await smsq.waitForRequest(INBOUND);

    expect(inbound.body).toEqual({ messages: [{ from: '+381647654321', message: 'Thanks, got it', received_at: expect.any(String), external_id: `termux:${id}` }] });
    expect(smsq.requestsTo(HEALTH)[0]?.body).toMatchObject({ battery_percent: expect.any(Number), charging: expect.any(Boolean) });
    await until(() => phone.calls('termux-sms-list').length > 5);
    expect(smsq.requestsTo(INBOUND)).toHaveLength(1);
  });
});
