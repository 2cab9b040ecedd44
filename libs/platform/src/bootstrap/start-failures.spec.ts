import { describe, expect, it } from 'vitest';
import { DependencyUnavailableError, startFailureLine } from './start-failures.js';

const servers = {
  databaseUrl: 'postgresql://smsq_billing:derived-s3cret@127.0.0.1:5499/smsq',
  amqpUrl: 'amqp://guest:guest@127.0.0.1:5699',
  redisUrl: 'redis://127.0.0.1:6399',
};

describe(startFailureLine.name, () => {
  it('gives the line of a failure already told apart where it happened', () => {
    const error = new DependencyUnavailableError('RabbitMQ at 127.0.0.1:5699 is not reachable (timed out)', { cause: new Error('connect ETIMEDOUT') });

    expect(startFailureLine(error, servers)).toBe('RabbitMQ at 127.0.0.1:5699 is not reachable (timed out)');
  });

  it("names the configured server an error that escaped the start came from, without the URL's password", () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5499'), { code: 'ECONNREFUSED', address: '127.0.0.1', port: 5499 });
    const wrongPassword = Object.assign(new Error('password authentication failed for user "smsq_billing"'), { severity: 'FATAL', code: '28P01' });

    expect(startFailureLine(refused, servers)).toBe('PostgreSQL at 127.0.0.1:5499 is not reachable (connection refused)');
    expect(startFailureLine(wrongPassword, servers)).toBe('PostgreSQL at 127.0.0.1:5499 refused the login of user "smsq_billing": wrong user or password');
  });

  it('leaves a bug, and a server the service does not name, to their stack trace', () => {
    const elsewhere = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5499'), { code: 'ECONNREFUSED', address: '127.0.0.1', port: 5499 });

    expect(startFailureLine(new TypeError("Cannot read properties of undefined (reading 'port')"), servers)).toBeUndefined();
    expect(startFailureLine(elsewhere, { redisUrl: servers.redisUrl })).toBeUndefined();
  });
});
