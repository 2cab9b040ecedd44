import type { TaskView } from '@smsq/contracts';
import { describe, expect, it } from 'vitest';
import { cursorAfter, parseTaskListRequest } from './task-list-request.js';

const ZONE = 'Europe/Belgrade';

describe(parseTaskListRequest.name, () => {
  it('reads nothing as the first 50 of every status', () => {
    expect(parseTaskListRequest({}, ZONE)).toEqual({ limit: 50 });
  });

  it('reads since and until as an instant with its offset or a local time in the client’s zone', () => {
    const request = parseTaskListRequest({ status: 'failed', since: '2026-11-01 10:00:00', until: '2026-11-02T09:00:00Z', limit: '200' }, ZONE);

    expect(request).toEqual({ status: 'failed', since: new Date('2026-11-01T09:00:00.000Z'), until: new Date('2026-11-02T09:00:00.000Z'), limit: 200 });
  });

  it('gives back the place a cursor it made points at', () => {
    const task = { id: 41, createdAt: '2026-11-23T10:00:00.123Z' } as TaskView;

    expect(parseTaskListRequest({ cursor: cursorAfter(task) }, ZONE).after).toEqual({ createdAt: '2026-11-23T10:00:00.123Z', id: 41 });
  });

  it.each([
    [{ status: 'queued' }, 'status'],
    [{ limit: '0' }, 'limit'],
    [{ limit: '201' }, 'limit'],
    [{ limit: '2.5' }, 'limit'],
    [{ since: 'yesterday' }, 'since'],
    [{ cursor: 'not-a-cursor' }, 'cursor'],
    [{ cursor: Buffer.from('["2026-11-23T10:00:00Z",3000000000]').toString('base64url') }, 'cursor'],
    [{ status: ['sent', 'failed'] }, 'status'],
    [{ page: '2' }, 'page'],
  ])('refuses %j as invalid_request, naming %s', (query, named) => {
    expect(() => parseTaskListRequest(query, ZONE)).toThrow(expect.objectContaining({ code: 'invalid_request', detail: expect.stringContaining(named) }));
  });
});
