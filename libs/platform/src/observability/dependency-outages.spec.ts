import { describe, expect, it, vi } from 'vitest';
import { connectionBack, connectionClosed, connectionLost } from './dependency-outages.js';

const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5672'), { code: 'ECONNREFUSED', address: '127.0.0.1', port: 5672 });

describe('dependency outages', () => {
  // Each test has a broker of its own: the outages are the process's.
  let port = 15_672;
  const broker = () => ({ kind: 'RabbitMQ' as const, url: `amqp://guest:s3cret@127.0.0.1:${++port}` });

  it('says in one line that a server is gone, however many connections lose it and however often they retry', () => {
    const logger = { warn: vi.fn(), log: vi.fn() };
    const dependency = broker();
    const [server, client] = [{}, {}];

    connectionLost(dependency, server, { err: refused }, logger);
    connectionLost(dependency, client, refused, logger);
    connectionLost(dependency, server, refused, logger);

    expect(logger.warn.mock.calls).toEqual([[`RabbitMQ at 127.0.0.1:${port} is not reachable (connection refused); retrying`]]);
  });

  it('says it is back once the last connection has it again, and says the next outage again', () => {
    const logger = { warn: vi.fn(), log: vi.fn() };
    const dependency = broker();
    const [server, client] = [{}, {}];
    connectionLost(dependency, server, refused, logger);
    connectionLost(dependency, client, refused, logger);

    connectionBack(dependency, server, logger);
    expect(logger.log).not.toHaveBeenCalled();
    connectionBack(dependency, client, logger);
    connectionLost(dependency, client, new Error('Unexpected close'), logger);

    expect(logger.log.mock.calls).toEqual([[`RabbitMQ at 127.0.0.1:${port} is reachable again`]]);
    expect(logger.warn.mock.calls.at(-1)).toEqual([`RabbitMQ at 127.0.0.1:${port} is not reachable (connection lost); retrying`]);
  });

  it('says nothing of a connection that reaches its server the first time, nor waits for one closed for good', () => {
    const logger = { warn: vi.fn(), log: vi.fn() };
    const dependency = broker();
    const [server, closed] = [{}, {}];
    connectionBack(dependency, server, logger);
    connectionLost(dependency, server, refused, logger);
    connectionLost(dependency, closed, refused, logger);

    connectionClosed(dependency, closed);
    connectionBack(dependency, server, logger);

    expect(logger.log.mock.calls).toEqual([[`RabbitMQ at 127.0.0.1:${port} is reachable again`]]);
  });

  it('still says in one line what an unknown failure was, without a stack trace', () => {
    const logger = { warn: vi.fn(), log: vi.fn() };

    connectionLost(broker(), {}, new Error('Expected ConnectionOpenOk; got <ConnectionClose channel:0>'), logger);

    expect(logger.warn.mock.calls).toEqual([[`RabbitMQ at 127.0.0.1:${port}: Expected ConnectionOpenOk; got <ConnectionClose channel:0>; retrying`]]);
  });
});
