import { DomainError } from '@smsq/contracts';
import { UNPARSABLE_BODY } from '@smsq/platform';
import { describe, expect, it } from 'vitest';
import { parseClaimLimit, parseStatusReport, parseStatusReports, parseWait } from './worker-requests.js';

function thrownBy(run: () => unknown): DomainError | undefined {
  try {
    run();
    return undefined;
  } catch (error) {
    return error as DomainError;
  }
}

const codeOf = (run: () => unknown): string | undefined => thrownBy(run)?.code;
const errorOf = (run: () => unknown): string | undefined => thrownBy(run)?.detail;

describe(parseWait.name, () => {
  it('reads whole seconds and counts anything above 30 as 30', () => {
    expect(parseWait(undefined)).toBe(0);
    expect(parseWait('0')).toBe(0);
    expect(parseWait('12')).toBe(12);
    expect(parseWait('3600')).toBe(30);
  });

  it.each(['-1', '1.5', 'soon', ['1', '2']])('refuses %j', (value) => {
    expect(codeOf(() => parseWait(value))).toBe('invalid_request');
  });
});

describe(parseStatusReport.name, () => {
  it('reads a report with or without an error text', () => {
    expect(parseStatusReport({ id: 4, status: 'sent' })).toEqual({ id: 4, status: 'sent', error: undefined, next: false });
    expect(parseStatusReport({ id: 4, status: 'failed', error: 'no signal' })).toEqual({ id: 4, status: 'failed', error: 'no signal', next: false });
  });

  it('reads a delivery report', () => {
    expect(parseStatusReport({ id: 4, status: 'delivered' })).toEqual({ id: 4, status: 'delivered', error: undefined, next: false });
  });

  it('reads the wish to claim the next task in the same request', () => {
    expect(parseStatusReport({ id: 4, status: 'sent', next: true }).next).toBe(true);
    expect(parseStatusReport({ id: 4, status: 'sent', next: false }).next).toBe(false);
  });

  it('reads retry on a failure, and leaves it out when not given', () => {
    expect(parseStatusReport({ id: 4, status: 'failed', error: 'radio off', retry: true })).toEqual({ id: 4, status: 'failed', error: 'radio off', next: false, retry: true });
    expect(parseStatusReport({ id: 4, status: 'failed', retry: false })).toEqual({ id: 4, status: 'failed', error: undefined, next: false, retry: false });
    expect(parseStatusReport({ id: 4, status: 'failed' })).not.toHaveProperty('retry');
  });

  it('refuses released, which only task-statuses takes, with the error of any unknown status', () => {
    const unknown = thrownBy(() => parseStatusReport({ id: 4, status: 'read' }));
    const released = thrownBy(() => parseStatusReport({ id: 4, status: 'released' }));

    expect(released?.toBody()).toEqual({ error: 'invalid_request', detail: 'status must be one of "sent", "failed", "delivered"' });
    expect(released?.toBody()).toEqual(unknown?.toBody());
    expect(thrownBy(() => parseStatusReport({ id: 4, status: 'released', next: true }))?.toBody()).toEqual(unknown?.toBody());
  });

  it.each(['sent', 'delivered'])('refuses retry with status %s, saying it goes only with failed', (status) => {
    expect(() => parseStatusReport({ id: 4, status, retry: true })).toThrow('retry is allowed only with status "failed"');
    expect(() => parseStatusReport({ id: 4, status, retry: false })).toThrow('retry is allowed only with status "failed"');
  });

  it('reads the reason of a failure to retry, and leaves it out when not given or null', () => {
    expect(parseStatusReport({ id: 4, status: 'failed', error: 'RESULT_ERROR_LIMIT_EXCEEDED', retry: true, reason: 'carrier_volume' })).toEqual({
      id: 4,
      status: 'failed',
      error: 'RESULT_ERROR_LIMIT_EXCEEDED',
      next: false,
      retry: true,
      reason: 'carrier_volume',
    });
    expect(parseStatusReport({ id: 4, status: 'failed', retry: true })).not.toHaveProperty('reason');
    expect(parseStatusReport({ id: 4, status: 'failed', retry: true, reason: null })).not.toHaveProperty('reason');
  });

  it.each([
    [{ id: 4, status: 'failed', retry: true, reason: 'spam' }, 'reason must be "carrier_volume"'],
    [{ id: 4, status: 'failed', retry: true, reason: 7 }, 'reason must be "carrier_volume"'],
    [{ id: 4, status: 'failed', reason: 'carrier_volume' }, 'reason "carrier_volume" is allowed only with status "failed" and retry true'],
    [{ id: 4, status: 'failed', retry: false, reason: 'carrier_volume' }, 'reason "carrier_volume" is allowed only with status "failed" and retry true'],
    [{ id: 4, status: 'sent', reason: 'carrier_volume' }, 'reason "carrier_volume" is allowed only with status "failed" and retry true'],
    [{ id: 4, status: 'delivered', reason: 'carrier_volume' }, 'reason "carrier_volume" is allowed only with status "failed" and retry true'],
  ])('refuses the reason of %j with invalid_request: %s', (body, detail) => {
    expect(thrownBy(() => parseStatusReport(body))?.toBody()).toEqual({ error: 'invalid_request', detail: expect.stringContaining(detail) });
  });

  it("reads cannot_decrypt on a failure that is not retried, and an encrypted message's parts on its sending", () => {
    expect(parseStatusReport({ id: 4, status: 'failed', error: 'cannot decrypt: no passphrase', reason: 'cannot_decrypt' })).toMatchObject({ status: 'failed', reason: 'cannot_decrypt' });
    expect(parseStatusReport({ id: 4, status: 'sent', segments: 3 })).toMatchObject({ status: 'sent', segments: 3 });
    expect(parseStatusReport({ id: 4, status: 'delivered', segments: 1 })).toMatchObject({ segments: 1 });
    expect(parseStatusReport({ id: 4, status: 'sent', segments: null })).not.toHaveProperty('segments');
  });

  it.each([
    [{ id: 4, status: 'failed', retry: true, reason: 'cannot_decrypt' }, 'reason "cannot_decrypt" is allowed only with status "failed" and without retry'],
    [{ id: 4, status: 'sent', reason: 'cannot_decrypt' }, 'reason "cannot_decrypt" is allowed only with status "failed" and without retry'],
    [{ id: 4, status: 'failed', segments: 2 }, 'segments is allowed only with status "sent" or "delivered"'],
    [{ id: 4, status: 'sent', segments: 0 }, 'segments must be a whole number from 1 to 49'],
    [{ id: 4, status: 'sent', segments: 2.5 }, 'segments must be a whole number from 1 to 49'],
    [{ id: 4, status: 'sent', segments: 50 }, 'segments must be a whole number from 1 to 49'],
  ])('refuses %j with invalid_request: %s', (body, detail) => {
    expect(thrownBy(() => parseStatusReport(body))?.toBody()).toEqual({ error: 'invalid_request', detail: expect.stringContaining(detail) });
  });

  it('keeps at most 1000 characters of the error', () => {
    expect(parseStatusReport({ id: 1, status: 'failed', error: 'x'.repeat(5000) }).error).toHaveLength(1000);
  });

  it.each([
    [UNPARSABLE_BODY, 'invalid_json'],
    [[], 'invalid_request'],
    [{ status: 'sent' }, 'invalid_request'],
    [{ id: '4', status: 'sent' }, 'invalid_request'],
    [{ id: 0, status: 'sent' }, 'invalid_request'],
    [{ id: 4, status: 'read' }, 'invalid_request'],
    [{ id: 4, status: 'DELIVERED' }, 'invalid_request'],
    [{ id: 4, status: 'claimed' }, 'invalid_request'],
    [{ id: 4, status: 'failed', error: 42 }, 'invalid_request'],
    [{ id: 4, status: 'sent', next: 'yes' }, 'invalid_request'],
    [{ id: 4, status: 'failed', retry: 'true' }, 'invalid_request'],
    [{ id: 4, status: 'failed', retry: 1 }, 'invalid_request'],
    [{ id: 4, status: 'failed', retry: null }, 'invalid_request'],
    [{ id: 4, status: 'sent', retry: true }, 'invalid_request'],
    [{ id: 4, status: 'failed', retry: true, reason: 'LIMIT_EXCEEDED' }, 'invalid_request'],
  ])('answers %j with %s', (body, code) => {
    expect(codeOf(() => parseStatusReport(body))).toBe(code);
  });
});

describe(parseClaimLimit.name, () => {
  it('reads 1 to 100, and nothing (the single claim of §3) when absent or empty, as wait', () => {
    expect(parseClaimLimit(undefined)).toBeUndefined();
    expect(parseClaimLimit('')).toBeUndefined();
    expect(parseClaimLimit('1')).toBe(1);
    expect(parseClaimLimit('50')).toBe(50);
    expect(parseClaimLimit('100')).toBe(100);
  });

  it.each(['0', '101', '1000', '-1', '1.5', 'all', '1e2', ['5', '6']])('refuses %j as invalid_request', (value) => {
    expect(codeOf(() => parseClaimLimit(value))).toBe('invalid_request');
  });
});

describe(parseStatusReports.name, () => {
  it('reads each report as task-status reads its body, in order, and next', () => {
    const parsed = parseStatusReports({ reports: [{ id: 4, status: 'sent' }, { id: 5, status: 'failed', error: 'x'.repeat(5000), retry: true }, { id: 6, status: 'delivered', error: '' }], next: 50 });

    expect(parsed.next).toBe(50);
    expect(parsed.reports).toEqual([
      { id: 4, status: 'sent', error: undefined },
      { id: 5, status: 'failed', error: 'x'.repeat(1000), retry: true },
      { id: 6, status: 'delivered', error: undefined },
    ]);
    expect(parseStatusReports({ reports: [{ id: 4, status: 'sent' }] }).next).toBeUndefined();
  });

  it('answers a report task-status would refuse in its place, with task-status’ own error, and keeps the others', () => {
    const bodies: unknown[] = [{ id: 4, status: 'read' }, { id: 4, status: 'sent', retry: true }, 'sent', null, { id: '4', status: 'sent' }, { id: 7, status: 'sent' }];
    const { reports } = parseStatusReports({ reports: [...bodies, { id: 8, status: 'sent', next: true }] });

    expect(reports.slice(0, 5).map((report) => (report instanceof DomainError ? report.toBody() : report))).toEqual([
      // The statuses this route takes, released among them.
      { error: 'invalid_request', detail: 'status must be one of "sent", "failed", "delivered", "released"' },
      { error: 'invalid_request', detail: errorOf(() => parseStatusReport(bodies[1])) },
      { error: 'invalid_request', detail: 'a report must be a JSON object with id and status' },
      { error: 'invalid_request', detail: 'a report must be a JSON object with id and status' },
      { error: 'invalid_request', detail: errorOf(() => parseStatusReport(bodies[4])) },
    ]);
    expect(reports[5]).toEqual({ id: 7, status: 'sent', error: undefined });
    expect(reports[6]).toMatchObject({ code: 'invalid_request', detail: 'next belongs to the request, not to a report' });
  });

  it.each([
    [UNPARSABLE_BODY, 'invalid_json'],
    [[{ id: 4, status: 'sent' }], 'invalid_request'],
    [{}, 'invalid_request'],
    [{ reports: [] }, 'invalid_request'],
    [{ reports: {} }, 'invalid_request'],
    [{ reports: Array.from({ length: 101 }, (_, i) => ({ id: i + 1, status: 'sent' })) }, 'invalid_request'],
    [{ reports: [{ id: 4, status: 'sent' }], next: 0 }, 'invalid_request'],
    [{ reports: [{ id: 4, status: 'sent' }], next: 101 }, 'invalid_request'],
    [{ reports: [{ id: 4, status: 'sent' }], next: true }, 'invalid_request'],
    [{ reports: [{ id: 4, status: 'sent' }], next: '5' }, 'invalid_request'],
    [{ reports: [{ id: 4, status: 'sent' }], next: 2.5 }, 'invalid_request'],
  ])('refuses the whole request %j with %s', (body, code) => {
    expect(codeOf(() => parseStatusReports(body))).toBe(code);
  });

  it('reads a released task, with no error and no retry, beside the usual reports', () => {
    const { reports } = parseStatusReports({ reports: [{ id: 4, status: 'sent' }, { id: 5, status: 'released' }, { id: 6, status: 'released', error: null }] });

    expect(reports).toEqual([
      { id: 4, status: 'sent', error: undefined },
      { id: 5, status: 'released', error: undefined },
      { id: 6, status: 'released', error: undefined },
    ]);
    expect(reports[1]).not.toHaveProperty('retry');
  });

  it.each([
    [{ id: 5, status: 'released', error: 'radio off' }],
    [{ id: 5, status: 'released', error: '' }],
    [{ id: 5, status: 'released', retry: true }],
    [{ id: 5, status: 'released', retry: false }],
  ])('refuses %j in its place, and keeps the other reports', (body) => {
    const { reports } = parseStatusReports({ reports: [body, { id: 7, status: 'sent' }] });

    expect(reports[0]).toBeInstanceOf(DomainError);
    expect((reports[0] as DomainError).toBody()).toEqual({ error: 'invalid_request', detail: 'error and retry are not allowed with status "released": the task was never tried' });
    expect(reports[1]).toEqual({ id: 7, status: 'sent', error: undefined });
  });

  it('refuses a released report whose error or retry is malformed with task-status’ own error for it', () => {
    const { reports } = parseStatusReports({ reports: [{ id: 5, status: 'released', error: 42 }, { id: 5, status: 'released', retry: 'yes' }] });

    expect(reports.map((report) => (report as DomainError).toBody())).toEqual([
      { error: 'invalid_request', detail: 'error must be a string' },
      { error: 'invalid_request', detail: 'retry must be true or false' },
    ]);
  });

  it('reads a reason in a report, and refuses one on a released task or without retry in its place', () => {
    const { reports } = parseStatusReports({
      reports: [
        { id: 4, status: 'failed', retry: true, reason: 'carrier_volume' },
        { id: 5, status: 'released', reason: 'carrier_volume' },
        { id: 6, status: 'failed', reason: 'carrier_volume' },
      ],
    });

    expect(reports[0]).toEqual({ id: 4, status: 'failed', error: undefined, retry: true, reason: 'carrier_volume' });
    expect((reports[1] as DomainError).detail).toContain('reason "carrier_volume" is allowed only with status "failed" and retry true');
    expect((reports[2] as DomainError).detail).toContain('reason "carrier_volume" is allowed only with status "failed" and retry true');
  });

  it('takes 100 reports', () => {
    expect(parseStatusReports({ reports: Array.from({ length: 100 }, (_, i) => ({ id: i + 1, status: 'sent' })), next: 100 }).reports).toHaveLength(100);
  });
});
