import { describe, expect, it } from 'vitest';
import { isInfrastructureOutage } from './infrastructure-outage.js';

describe(isInfrastructureOutage.name, () => {
  it('counts the time-outs of a connection gone silent as an outage (503, retry later), however deep they are wrapped', () => {
    const silent = [
      new Error('Query read timeout'),
      new Error('timeout expired'),
      new Error('timeout exceeded when trying to connect'),
      new Error('Client was closed and is not queryable'),
      new Error('Command timed out'),
      new Error("Socket timeout. Expecting data, but didn't receive any in 4000ms."),
      Object.assign(new Error('canceling statement due to statement timeout'), { code: '57014' }),
      Object.assign(new Error('terminating connection due to idle-in-transaction timeout'), { code: '25P03' }),
      Object.assign(new Error('Transaction API error: Unable to start a transaction in the given time.'), { code: 'P2028' }),
      new Error('Transaction already closed: it ran past its time-out of 10000 ms'),
    ];
    for (const error of silent) {
      expect(isInfrastructureOutage(error), error.message).toBe(true);
      expect(isInfrastructureOutage({ name: 'PrismaClientKnownRequestError', cause: { cause: error } }), error.message).toBe(true);
    }
  });

  it('counts a prepared statement a migration outlived as an outage: its connection is dropped, and a retry runs on a fresh one', () => {
    expect(isInfrastructureOutage(Object.assign(new Error('cached plan must not change result type'), { code: '0A000' }))).toBe(true);
    expect(isInfrastructureOutage(Object.assign(new Error('LIMIT #,# syntax is not supported'), { code: '0A000' }))).toBe(false);
  });

  it('leaves a bug a bug', () => {
    expect(isInfrastructureOutage(new TypeError("Cannot read properties of undefined (reading 'id')"))).toBe(false);
    expect(isInfrastructureOutage(Object.assign(new Error('duplicate key value violates unique constraint'), { code: '23505' }))).toBe(false);
  });
});
