import { connect, createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { describeDependencyFailure, describeStartFailure, serverAddress, type Dependency } from './dependency-failure.js';

const postgres: Dependency = { kind: 'PostgreSQL', url: 'postgresql://smsq:s3cret@127.0.0.1:5499/smsq' };
const rabbitmq: Dependency = { kind: 'RabbitMQ', url: 'amqp://guest:wrong@127.0.0.1:5672' };
const redis: Dependency = { kind: 'Redis', url: 'redis://:s3cret@127.0.0.1:6399' };

/** The errors below are shaped as pg 8, amqplib 2, ioredis 5 and Node 20 throw them. */
function socketError(code: string, address: string, port: number): Error {
  return Object.assign(new Error(`connect ${code} ${address}:${port}`), { errno: -111, code, syscall: 'connect', address, port });
}
function hostNotFound(hostname: string): Error {
  return Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { errno: -3008, code: 'ENOTFOUND', syscall: 'getaddrinfo', hostname });
}
function postgresError(code: string, message: string): Error {
  return Object.assign(new Error(message), { name: 'error', severity: 'FATAL', code, routine: 'auth_failed' });
}
function redisReply(message: string): Error {
  return Object.assign(new Error(message), { name: 'ReplyError', command: { name: 'auth', args: ['s3cret'] } });
}

/** A port nothing listens on. */
function closedPort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

describe(describeDependencyFailure.name, () => {
  it('says a server refused the connection, from the error Node really throws', async () => {
    const port = await closedPort();
    const refused = await new Promise<Error>((resolve) => connect(port, '127.0.0.1').on('error', resolve));

    expect(describeDependencyFailure(refused, { kind: 'PostgreSQL', url: `postgresql://postgres@127.0.0.1:${port}/x` })).toBe(
      `PostgreSQL at 127.0.0.1:${port} is not reachable (connection refused)`,
    );
  });

  it('says a server did not answer in time, however its driver words the time-out', () => {
    const timeouts = [
      new Error('timeout expired'), // pg's connect
      new Error('Connection terminated due to connection timeout', { cause: new Error('Connection terminated unexpectedly') }), // pg-pool's
      new Error('connect ETIMEDOUT'), // amqplib's
      Object.assign(new Error('connect ETIMEDOUT'), { errorno: 'ETIMEDOUT', code: 'ETIMEDOUT', syscall: 'connect' }), // ioredis's
      new Error("Socket timeout. Expecting data, but didn't receive any in 4000ms."), // ioredis's silent socket
    ];
    for (const error of timeouts) {
      expect(describeDependencyFailure(error, postgres), error.message).toBe('PostgreSQL at 127.0.0.1:5499 is not reachable (timed out)');
    }
  });

  it('says a host name was not found', () => {
    expect(describeDependencyFailure(hostNotFound('db.example.invalid'), { kind: 'PostgreSQL', url: 'postgresql://postgres@db.example.invalid/smsq' })).toBe(
      'PostgreSQL at db.example.invalid:5432 is not reachable (host not found)',
    );
  });

  it('reads the error inside the wrappers: an event payload, a cause, the attempts of a name with two addresses', () => {
    const localhost = Object.assign(new AggregateError([socketError('ECONNREFUSED', '::1', 5672), socketError('ECONNREFUSED', '127.0.0.1', 5672)]), { code: 'ECONNREFUSED' });
    const amqp: Dependency = { kind: 'RabbitMQ', url: 'amqp://localhost' };

    expect(describeDependencyFailure({ err: socketError('ECONNREFUSED', '127.0.0.1', 5672) }, amqp)).toBe('RabbitMQ at localhost:5672 is not reachable (connection refused)');
    expect(describeDependencyFailure(localhost, amqp)).toBe('RabbitMQ at localhost:5672 is not reachable (connection refused)');
    expect(describeDependencyFailure(new Error('wrapped', { cause: new Error('Unexpected close') }), amqp)).toBe('RabbitMQ at localhost:5672 is not reachable (connection lost)');
  });

  it("names PostgreSQL's refused login and the user the server refused (28P01, 28000), never the password, in the words of npm start's check", () => {
    expect(describeDependencyFailure(postgresError('28P01', 'password authentication failed for user "smsq"'), postgres)).toBe(
      'PostgreSQL at 127.0.0.1:5499 refused the login of user "smsq": wrong user or password',
    );
    expect(describeDependencyFailure(postgresError('28000', 'role "nobody" does not exist'), postgres)).toBe('PostgreSQL at 127.0.0.1:5499 refused the login of user "nobody": no such user');
    expect(describeDependencyFailure(postgresError('28000', 'no pg_hba.conf entry for host "10.0.0.9", user "smsq", database "smsq", no encryption'), postgres)).toBe(
      'PostgreSQL at 127.0.0.1:5499 refused the login of user "smsq": not allowed to connect (no pg_hba.conf entry for host "10.0.0.9", user "smsq", database "smsq", no encryption)',
    );
  });

  it("names RabbitMQ's refused login (403 ACCESS_REFUSED) with the URL's user", () => {
    const refused = new Error('Handshake terminated by server: 403 (ACCESS-REFUSED) with message "ACCESS_REFUSED - Login was refused using authentication mechanism PLAIN. For details see the broker logfile."');

    expect(describeDependencyFailure(refused, rabbitmq)).toBe('RabbitMQ at 127.0.0.1:5672 refused the login of user "guest": wrong user or password');
    expect(describeDependencyFailure(refused, { kind: 'RabbitMQ', url: 'amqp://127.0.0.1' })).toBe('RabbitMQ at 127.0.0.1:5672 refused the login of user "guest": wrong user or password');
  });

  it("names Redis's refused login (WRONGPASS) and a password it asks for but was not given (NOAUTH)", () => {
    expect(describeDependencyFailure(redisReply('WRONGPASS invalid username-password pair or user is disabled.'), redis)).toBe(
      'Redis at 127.0.0.1:6399 refused the login of user "default": wrong user or password',
    );
    expect(describeDependencyFailure(redisReply('WRONGPASS invalid username-password pair or user is disabled.'), { kind: 'Redis', url: 'redis://smsq:s3cret@cache:6380' })).toBe(
      'Redis at cache:6380 refused the login of user "smsq": wrong user or password',
    );
    expect(describeDependencyFailure(redisReply('NOAUTH Authentication required.'), { kind: 'Redis', url: 'redis://127.0.0.1' })).toBe(
      'Redis at 127.0.0.1:6379 refused the login of user "default": it asks for a password, and the URL gives none',
    );
  });

  it('leaves a bug, and an error of another server, to their stack trace', () => {
    expect(describeDependencyFailure(new TypeError("Cannot read properties of undefined (reading 'id')"), postgres)).toBeUndefined();
    expect(describeDependencyFailure(postgresError('23505', 'duplicate key value violates unique constraint "clients_pkey"'), postgres)).toBeUndefined();
    expect(describeDependencyFailure(redisReply('WRONGPASS invalid username-password pair or user is disabled.'), postgres)).toBeUndefined();
    expect(describeDependencyFailure('ECONNREFUSED', postgres)).toBeUndefined();
  });
});

describe(describeStartFailure.name, () => {
  const configured = [postgres, rabbitmq, redis];

  it('names the server the error came from, by its port or host', () => {
    expect(describeStartFailure(socketError('ECONNREFUSED', '127.0.0.1', 5672), configured)).toBe('RabbitMQ at 127.0.0.1:5672 is not reachable (connection refused)');
    expect(describeStartFailure(socketError('ECONNREFUSED', '127.0.0.1', 5499), configured)).toBe('PostgreSQL at 127.0.0.1:5499 is not reachable (connection refused)');
    expect(describeStartFailure(hostNotFound('cache'), [postgres, { kind: 'Redis', url: 'redis://cache:6379' }])).toBe('Redis at cache:6379 is not reachable (host not found)');
  });

  it("knows a refused login, and pg's connect time-out and lost connection, by their wording alone", () => {
    expect(describeStartFailure(postgresError('28P01', 'password authentication failed for user "smsq"'), configured)).toBe(
      'PostgreSQL at 127.0.0.1:5499 refused the login of user "smsq": wrong user or password',
    );
    expect(describeStartFailure(new Error('timeout expired'), configured)).toBe('PostgreSQL at 127.0.0.1:5499 is not reachable (timed out)');
    expect(describeStartFailure(new Error('Connection terminated unexpectedly'), configured)).toBe('PostgreSQL at 127.0.0.1:5499 is not reachable (connection lost)');
  });

  it('leaves an error that names none of the servers alone', () => {
    expect(describeStartFailure(socketError('ECONNREFUSED', '127.0.0.1', 443), configured)).toBeUndefined();
    expect(describeStartFailure(new Error('Migration 20240101000000_create_accounts failed: division by zero'), configured)).toBeUndefined();
  });
});

describe(serverAddress.name, () => {
  it("shows a server's host and port, the scheme's port when the URL has none, and never its credentials", () => {
    expect(serverAddress('postgresql://smsq:s3cret@db.internal/smsq?sslmode=require')).toBe('db.internal:5432');
    expect(serverAddress('amqps://user:s3cret@broker:5671/vhost')).toBe('broker:5671');
    expect(serverAddress('redis://:s3cret@[::1]:6380')).toBe('[::1]:6380');
  });
});
