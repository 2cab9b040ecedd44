import { afterEach, describe, expect, it } from 'vitest';
import { acceptReports, batchAnswers, harness, pendingTask, POLL, pollAnswers, REPORT, REPORTS, SEND, TOKEN, type Harness } from '../testing/worker-harness.js';
import { DeliveryWorker } from './delivery-worker.js';

const ids = (requests: { body: unknown }[]) => requests.map((request) => (request.body as { id: number }).id);

describe(`${DeliveryWorker.name} in batches`, () => {
  let sut: Harness;

  afterEach(async () => {
    await sut?.close();
    expect(sut.logger.lines.join('\n')).not.toContain(TOKEN);
  });

  it('claims a batch, sends its tasks in order through the gateway, reports them in one request and takes the next batch from its answer', async () => {
    sut = await harness({ env: { WORKER_CLAIM_LIMIT: '5' } });
    const task = (id: number) => pendingTask(sut.gateway.url, { id, message: `SMS ${id}` });
    sut.smsq.route(POLL, batchAnswers([task(7), task(8), task(9)]));
    let answered = 0;
    sut.smsq.route(REPORTS, (request) => {
      const { reports } = request.body as { reports: Array<{ id: number; status: string }> };
      const tasks = ++answered === 1 ? [task(10), task(11)] : [];
      return { status: 200, body: { results: reports.map((report) => ({ ok: true, id: report.id, status: 'sent' })), tasks } };
    });
    sut.start();

    await sut.smsq.waitForRequest(REPORTS, 2);

    expect(sut.smsq.requestsTo(POLL)[0]?.query.get('limit')).toBe('5');
    expect(ids(sut.gateway.requestsTo(SEND))).toEqual([7, 8, 9, 10, 11]);
    expect(sut.smsq.requestsTo(REPORTS).map((request) => request.body)).toEqual([
      { reports: [7, 8, 9].map((id) => ({ id, status: 'sent' })), next: 5 },
      { reports: [10, 11].map((id) => ({ id, status: 'sent' })), next: 5 },
    ]);
    // Tasks 10 and 11 came with the first report: one poll, then reports only.
    expect(sut.smsq.requestsTo(POLL)[0]!.at).toBeLessThan(sut.smsq.requestsTo(REPORTS)[0]!.at);
    expect(sut.smsq.requestsTo(POLL).filter((poll) => poll.at < sut.smsq.requestsTo(REPORTS)[1]!.at)).toHaveLength(1);
    expect(sut.smsq.requestsTo(REPORT)).toEqual([]);
    await sut.logger.waitForLine(/reported task=11 status=sent attempt=1/);
  });

  it('reports each outcome as a single task would: failed with the gateway’s reason, retry on its word, an unusable task failed', async () => {
    sut = await harness({ env: { WORKER_CLAIM_LIMIT: '10' } });
    sut.smsq.route(POLL, batchAnswers([pendingTask(sut.gateway.url, { id: 1 }), pendingTask(sut.gateway.url, { id: 2 }), pendingTask(sut.gateway.url, { id: 3 }), pendingTask(sut.gateway.url, { id: 4, recipient: '' })]));
    sut.smsq.route(REPORTS, acceptReports);
    sut.gateway.route(SEND, (request) => {
      const { id } = request.body as { id: number };
      if (id === 2) return { status: 502, body: { error: 'simulated carrier failure' } };
      if (id === 3) return { status: 503, body: { error: 'no signal', retry: true } };
      return { status: 200, body: { ok: true } };
    });
    sut.start();

    const report = await sut.smsq.waitForRequest(REPORTS);

    expect(report.body).toEqual({
      reports: [
        { id: 1, status: 'sent' },
        { id: 2, status: 'failed', error: 'gateway answered 502: simulated carrier failure' },
        { id: 3, status: 'failed', error: 'gateway answered 503: no signal', retry: true },
        { id: 4, status: 'failed', error: 'the task from smsq is unusable: the task has no recipient' },
      ],
      next: 10,
    });
    expect(ids(sut.gateway.requestsTo(SEND))).toEqual([1, 2, 3]);
  });

  it('after a refusal for volume, gives back the batch\'s other tasks for that phone unsent, still sends those for another, and claims on', async () => {
    sut = await harness({ env: { WORKER_CLAIM_LIMIT: '10' } });
    const other = `${sut.gateway.url}/other/`;
    sut.smsq.route(POLL, batchAnswers([pendingTask(sut.gateway.url, { id: 1 }), pendingTask(sut.gateway.url, { id: 2 }), pendingTask(sut.gateway.url, { id: 3 }), pendingTask(other, { id: 4 }), pendingTask(sut.gateway.url, { id: 5 })]));
    sut.smsq.route(REPORTS, acceptReports);
    sut.gateway.route(SEND, (request) => ((request.body as { id: number }).id === 2 ? { status: 429, body: { error: 'rate_limited' } } : { status: 200, body: { ok: true } }));
    sut.gateway.route('POST /other/send', () => ({ status: 200, body: { ok: true } }));
    sut.start();

    const report = await sut.smsq.waitForRequest(REPORTS);

    expect(report.body).toEqual({
      reports: [
        { id: 1, status: 'sent' },
        { id: 2, status: 'failed', error: 'gateway answered 429: rate_limited', retry: true, reason: 'carrier_volume' },
        { id: 3, status: 'released' },
        { id: 4, status: 'sent' },
        { id: 5, status: 'released' },
      ],
      next: 10,
    });
    expect(ids(sut.gateway.requestsTo(SEND))).toEqual([1, 2]);
    expect(ids(sut.gateway.requestsTo('POST /other/send'))).toEqual([4]);
    expect(sut.logger.lines).toContain('warn not sent loop=1 task=3 reason="its phone was refused for volume after it was claimed"');
    // And polls on: smsq gives the paused phone nothing until it resumes.
    await sut.smsq.waitForRequest(POLL, 2);
  });

  it('sends a task claimed after the refusal\'s report landed, as smsq resumed the phone', async () => {
    sut = await harness({ env: { WORKER_CLAIM_LIMIT: '10' } });
    sut.smsq.route(POLL, batchAnswers([pendingTask(sut.gateway.url, { id: 1 })], [pendingTask(sut.gateway.url, { id: 2 })]));
    sut.smsq.route(REPORTS, acceptReports);
    sut.gateway.route(SEND, (request) => ((request.body as { id: number }).id === 1 ? { status: 429, body: { error: 'rate_limited' } } : { status: 200, body: { ok: true } }));
    sut.start();

    const second = await sut.smsq.waitForRequest(REPORTS, 2);

    expect(second.body).toEqual({ reports: [{ id: 2, status: 'sent' }], next: 10 });
    expect(ids(sut.gateway.requestsTo(SEND))).toEqual([1, 2]);
  });

  it('retries only the reports smsq could not take, and takes refusals as final', async () => {
    sut = await harness({ env: { WORKER_CLAIM_LIMIT: '10' }, timings: { report: { initialMs: 100, maxMs: 400 } } });
    sut.smsq.route(POLL, batchAnswers([1, 2, 3].map((id) => pendingTask(sut.gateway.url, { id }))));
    let answered = 0;
    sut.smsq.route(REPORTS, (request) => {
      answered++;
      if (answered === 1) return { status: 503, body: { error: 'unavailable', detail: 'dispatch is down' } };
      const { reports } = request.body as { reports: Array<{ id: number }> };
      const results = reports.map((report) => {
        if (report.id === 2) return { ok: false, error: 'not_found', detail: 'task not found', http_status: 404 };
        if (report.id === 3 && answered === 2) return { ok: false, error: 'unavailable', detail: 'retry later', http_status: 503 };
        return { ok: true, id: report.id, status: 'sent' };
      });
      return { status: 200, body: { results, tasks: [] } };
    });
    sut.start();

    await sut.logger.waitForLine(/reported task=3 status=sent attempt=3/);

    expect(sut.smsq.requestsTo(REPORTS).map((request) => request.body)).toEqual([
      { reports: [1, 2, 3].map((id) => ({ id, status: 'sent' })), next: 10 },
      { reports: [1, 2, 3].map((id) => ({ id, status: 'sent' })), next: 10 },
      // Smsq took the second request, and claimed with it: the retry owes only task 3, and asks for nothing more.
      { reports: [{ id: 3, status: 'sent' }] },
    ]);
    expect(sut.logger.lines).toContain('error report refused task=2 status=sent http_status=404 reason="not_found: task not found"');
    expect(sut.logger.lines).toContain('warn report retry task=3 status=sent attempt=2 retry_in_ms=200 http_status=503 reason="unavailable: retry later"');
    expect(sut.logger.lines.filter((line) => line.startsWith('log reported'))).toEqual(['log reported task=1 status=sent attempt=2', 'log reported task=3 status=sent attempt=3']);
  });

  it('while a send of the batch hangs, reports the tasks sent before it and gives back those after it, untried; an unusable one is still reported failed', async () => {
    sut = await harness({ env: { WORKER_CLAIM_LIMIT: '5' } });
    const claimed = [...[1, 2, 3, 4].map((id) => pendingTask(sut.gateway.url, { id })), pendingTask(sut.gateway.url, { id: 5, recipient: '' })];
    sut.smsq.route(POLL, batchAnswers(claimed));
    sut.smsq.route(REPORTS, acceptReports);
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    sut.gateway.route(SEND, async (request) => {
      if ((request.body as { id: number }).id === 2) await released;
      return { status: 200, body: { ok: true } };
    });
    sut.start();

    await sut.logger.waitForLine(/reported task=4 status=released/);
    const whileHung = sut.smsq.requestsTo(REPORTS).flatMap((request) => (request.body as { reports: unknown[] }).reports);
    expect(whileHung).toEqual([{ id: 1, status: 'sent' }, { id: 3, status: 'released' }, { id: 4, status: 'released' }]);
    expect(sut.logger.lines).toContain('warn giving back loop=1 tasks=3,4 reason="task 2 has been with the phone for over 2000 ms"');
    release();
    const last = await sut.smsq.waitForRequest(REPORTS, sut.smsq.requestsTo(REPORTS).length + 1);

    expect(last.body).toEqual({ reports: [{ id: 2, status: 'sent' }, { id: 5, status: 'failed', error: 'the task from smsq is unusable: the task has no recipient' }], next: 5 });
    expect(ids(sut.gateway.requestsTo(SEND))).toEqual([1, 2]);
  });

  it('keeps reporting a sent task past its claim\'s lapse, and gives back untried a task of the batch whose claim lapsed first, only within its claim', async () => {
    sut = await harness({ env: { WORKER_CLAIM_LIMIT: '10' } });
    // Task 1's claim lapses a second after it was handed over, task 2's before.
    let lapsesAt = Number.POSITIVE_INFINITY;
    sut.smsq.route(POLL, batchAnswers(() => {
      lapsesAt = Date.now() + 1_000;
      return [pendingTask(sut.gateway.url, { id: 1, claim_expires_at: new Date(lapsesAt).toISOString() }), pendingTask(sut.gateway.url, { id: 2, claim_expires_at: new Date(Date.now() - 5_000).toISOString() })];
    }));
    sut.smsq.route(REPORTS, (request) => (Date.now() < lapsesAt + 1_500 ? { status: 503, body: { error: 'unavailable', detail: 'down' } } : acceptReports(request)));
    sut.start();

    await sut.logger.waitForLine(/reported task=1 status=sent/);

    expect(ids(sut.gateway.requestsTo(SEND))).toEqual([1]);
    expect(sut.logger.lines).toContain('warn not sent loop=1 task=2 reason="its claim lapses before its turn to send (pace and jitter), or the task expired"');
    const [first, ...retries] = sut.smsq.requestsTo(REPORTS).map((request) => (request.body as { reports: unknown }).reports);
    expect(first).toEqual([{ id: 1, status: 'sent' }, { id: 2, status: 'released' }]);
    // Task 2's claim had lapsed already: a late release could undo a new claim, so it is not retried.
    expect(retries.length).toBeGreaterThan(0);
    for (const reports of retries) expect(reports).toEqual([{ id: 1, status: 'sent' }]);
    expect(sut.logger.lines.filter((line) => line.includes('report abandoned'))).toEqual(['error report abandoned task=2 status=released attempts=1 http_status=503 reason="unavailable: down" note="the claim expired; the lease returns the task to pending"']);
  });

  it('sizes its claims from the pace: an unpaced gateway claims one first, then a batch once its sends are measured', async () => {
    sut = await harness({ env: { WORKER_CLAIM_LIMIT: '' } });
    sut.smsq.route(POLL, (request) => (request.query.get('limit') === null ? pollAnswers({ status: 200, body: pendingTask(sut.gateway.url) })(request) : batchAnswers([pendingTask(sut.gateway.url, { id: 8 })])(request)));
    sut.smsq.route(REPORT, () => ({ status: 200, body: { ok: true, id: 7, status: 'sent' } }));
    sut.smsq.route(REPORTS, acceptReports);
    sut.start();

    await sut.smsq.waitForRequest(REPORTS);

    const polls = sut.smsq.requestsTo(POLL).map((poll) => poll.query.get('limit'));
    expect(polls[0]).toBeNull();
    // As many as the measured send lets the phone send within a claim (claim-sizer.spec.ts checks the sizes and their cap
    // of 100): an idle machine measures a few ms, so 100; a busy one may measure a first send of 20–40 ms, so fewer.
    const batch = Number(polls[1]);
    expect(batch).toBeGreaterThan(1);
    expect(batch).toBeLessThanOrEqual(100);
    // The single claim's report asks for no next task: the phone now takes more than one, so the loop claims a batch.
    expect(sut.smsq.requestsTo(REPORT).map((request) => request.body)).toEqual([{ id: 7, status: 'sent' }]);
    const batchReport = sut.smsq.requestsTo(REPORTS)[0]?.body as { next: number };
    expect(batchReport).toEqual({ reports: [{ id: 8, status: 'sent' }], next: expect.any(Number) });
    expect(batchReport.next).toBeGreaterThan(1);
    expect(batchReport.next).toBeLessThanOrEqual(100);
  });

  it('keeps to single claims and reports on a phone paced at one SMS every few seconds', async () => {
    sut = await harness({ env: { WORKER_CLAIM_LIMIT: '', WORKER_SENDS_PER_MINUTE: '20' } });
    sut.smsq.route(POLL, pollAnswers({ status: 200, body: pendingTask(sut.gateway.url) }));
    sut.start();

    await sut.smsq.waitForRequest(POLL, 2);

    expect(sut.smsq.requestsTo(POLL).map((poll) => poll.query.get('limit'))).toEqual([null, null]);
    expect(sut.smsq.requestsTo(REPORT).map((request) => request.body)).toEqual([{ id: 7, status: 'sent', next: true }]);
    expect(sut.smsq.requestsTo(REPORTS)).toEqual([]);
  });

  it('on stop, delivers and reports the batch in hand without claiming more, then stops polling', async () => {
    sut = await harness({ env: { WORKER_CLAIM_LIMIT: '3' } });
    sut.smsq.route(POLL, batchAnswers([1, 2].map((id) => pendingTask(sut.gateway.url, { id }))));
    sut.smsq.route(REPORTS, acceptReports);
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    sut.gateway.route(SEND, async () => {
      await released;
      return { status: 200, body: { ok: true } };
    });
    sut.start();
    await sut.gateway.waitForRequest(SEND);

    sut.worker.stop();
    await sut.logger.waitForLine(/stopping tasks_in_hand=2/);
    release();
    await sut.running;

    expect(ids(sut.gateway.requestsTo(SEND))).toEqual([1, 2]);
    expect(sut.smsq.requestsTo(REPORTS).map((request) => request.body)).toEqual([{ reports: [1, 2].map((id) => ({ id, status: 'sent' })) }]);
    expect(sut.smsq.requestsTo(POLL)).toHaveLength(1);
  });
});
