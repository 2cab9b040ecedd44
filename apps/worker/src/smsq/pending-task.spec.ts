import { describe, expect, it } from 'vitest';
import { parsePendingTask } from './pending-task.js';

const NOW = Date.parse('2026-05-04T10:00:00.000Z');

describe(parsePendingTask.name, () => {
  it('reads an empty object as nothing due', () => {
    expect(parsePendingTask({}, NOW, null)).toEqual({ kind: 'idle' });
  });

  it('reads a task, its claim deadline on the local clock, and no pace, jitter or SIM, one part, from an smsq that names none', () => {
    const parsed = parsePendingTask(
      { id: 5, recipient: '+381641234567', message: 'hi', phone_id: 1, client_id: 2, scheduled_at: '2026-05-04 12:00:00', gateway_url: 'http://10.0.0.5:8080', attempt: 2, claim_expires_at: '2026-05-04T10:05:00.000Z' },
      NOW,
      'Mon, 04 May 2026 10:00:00 GMT',
    );

    expect(parsed).toEqual({
      kind: 'task',
      task: { id: 5, recipient: '+381641234567', message: 'hi', phoneId: 1, clientId: 2, scheduledAt: '2026-05-04 12:00:00', gatewayUrl: 'http://10.0.0.5:8080', attempt: 2, perMinute: null, jitterS: null, sim: null, parts: 1, encrypted: false, receivedAt: NOW, claimDeadline: NOW + 300_000 },
    });
  });

  it.each([
    [20, 20],
    [null, null],
    [0, null],
    [-3, null],
    [2.5, null],
    ['20', null],
  ])('reads per_minute %j as the pace %j', (perMinute, pace) => {
    expect(parsePendingTask({ id: 5, recipient: '+1', message: 'hi', per_minute: perMinute }, NOW, null)).toMatchObject({ kind: 'task', task: { perMinute: pace } });
  });

  it.each([
    [true, true],
    [false, false],
    [undefined, false],
    [null, false],
  ])('reads encrypted %j as %j', (encrypted, read) => {
    expect(parsePendingTask({ id: 5, recipient: '+1', message: '$smsq$1$…', parts: 1, encrypted }, NOW, null)).toMatchObject({ kind: 'task', task: { encrypted: read } });
  });

  it.each(['true', 1, 'yes'])('holds a task whose encrypted flag is %j undeliverable rather than send it as plain text', (encrypted) => {
    expect(parsePendingTask({ id: 5, recipient: '+1', message: '$smsq$1$…', encrypted }, NOW, null)).toMatchObject({ kind: 'undeliverable', id: 5, problem: 'the task encrypted flag is neither true nor false' });
  });

  it('reads the parts, jitter and SIM smsq names for the task', () => {
    expect(parsePendingTask({ id: 5, recipient: '+1', message: 'hi', parts: 3, jitter: 20, sim: 2 }, NOW, null)).toMatchObject({ kind: 'task', task: { parts: 3, jitterS: 20, sim: 2 } });
  });

  it.each([
    [2, 2],
    [255, 255],
    [undefined, 1],
    [null, 1],
    [0, 1],
    [-2, 1],
    [1.5, 1],
    [256, 1],
    ['3', 1],
  ])('reads parts %j as %j', (parts, read) => {
    expect(parsePendingTask({ id: 5, recipient: '+1', message: 'hi', parts }, NOW, null)).toMatchObject({ kind: 'task', task: { parts: read } });
  });

  it.each([
    [0, 0],
    [30, 30],
    [600, 600],
    [undefined, null],
    [null, null],
    [-1, null],
    [2.5, null],
    [601, null],
    ['30', null],
  ])('reads jitter %j as %j seconds', (jitter, read) => {
    expect(parsePendingTask({ id: 5, recipient: '+1', message: 'hi', jitter }, NOW, null)).toMatchObject({ kind: 'task', task: { jitterS: read } });
  });

  it.each([
    [1, 1],
    [2, 2],
    [undefined, null],
    [null, null],
    [0, null],
    [9, null],
    [1.5, null],
    ['2', null],
  ])('reads sim %j as %j', (sim, read) => {
    expect(parsePendingTask({ id: 5, recipient: '+1', message: 'hi', sim }, NOW, null)).toMatchObject({ kind: 'task', task: { sim: read } });
  });

  it('moves the claim deadline by the difference between the clocks', () => {
    // smsq's clock is ten minutes behind ours: its five minutes of claim end five minutes from our now.
    const parsed = parsePendingTask({ id: 5, recipient: '+1', message: 'hi', gateway_url: null, claim_expires_at: '2026-05-04T09:55:00.000Z' }, NOW, 'Mon, 04 May 2026 09:50:00 GMT');

    expect(parsed).toMatchObject({ kind: 'task', task: { gatewayUrl: null, claimDeadline: NOW + 300_000 } });
  });

  it('assumes the default claim timeout when claim_expires_at is unusable', () => {
    expect(parsePendingTask({ id: 5, recipient: '+1', message: 'hi', claim_expires_at: 'soon' }, NOW, null)).toMatchObject({ task: { claimDeadline: NOW + 300_000 } });
  });

  it('tells a claimed but undeliverable task from an unusable answer', () => {
    expect(parsePendingTask({ id: 5, message: 'hi' }, NOW, null)).toEqual({ kind: 'undeliverable', id: 5, claimDeadline: NOW + 300_000, problem: 'the task has no recipient' });
    expect(parsePendingTask({ id: 5, recipient: '+1', message: 'hi', gateway_url: 42 }, NOW, null)).toMatchObject({ kind: 'undeliverable', problem: 'the task gateway_url is not a string' });
    expect(parsePendingTask({ id: 'five' }, NOW, null)).toEqual({ kind: 'malformed', problem: 'the task id "five" is not a positive integer' });
    expect(parsePendingTask([], NOW, null)).toEqual({ kind: 'malformed', problem: 'the answer is not a JSON object' });
  });
});
