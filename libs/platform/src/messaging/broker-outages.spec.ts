import { EventEmitter } from 'node:events';
import { Logger } from '@nestjs/common';
import type { AmqpConnectionManager } from 'amqp-connection-manager';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { BrokerTransportLogger, reportBrokerOutages } from './broker-outages.js';

const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5699'), { code: 'ECONNREFUSED', address: '127.0.0.1', port: 5699 });

describe(BrokerTransportLogger.name, () => {
  afterEach(() => vi.restoreAllMocks());

  it("drops Nest's two lines about a lost or failed connection, the second of them a stack trace", () => {
    const printed = vi.spyOn(Logger.prototype, 'error').mockImplementation(() => undefined);
    const sut = new BrokerTransportLogger('Server');

    sut.error('Disconnected from RMQ. Trying to reconnect.');
    sut.error({ err: new Error('Unexpected close') });
    sut.error('Connection to transport failed. Trying to reconnect...');
    sut.error(refused);

    expect(printed).not.toHaveBeenCalled();
  });

  it('passes the rest of what the transport logs through, an error logged later included', async () => {
    const printed = vi.spyOn(Logger.prototype, 'error').mockImplementation(() => undefined);
    const sut = new BrokerTransportLogger('Server');
    const later = new Error('a handler failed');

    sut.error('Connection to transport failed. Trying to reconnect...');
    await new Promise((resolve) => process.nextTick(resolve));
    sut.error(later);
    sut.error('cannot use queue smsq.billing: 406 PRECONDITION_FAILED');

    expect(printed.mock.calls).toEqual([[later], ['cannot use queue smsq.billing: 406 PRECONDITION_FAILED']]);
  });
});

describe(reportBrokerOutages.name, () => {
  it('says in one line, without the password, that the broker cannot be reached, and when it is back', () => {
    const logger = { warn: vi.fn(), log: vi.fn() };
    const connection = new EventEmitter();
    reportBrokerOutages(connection as unknown as AmqpConnectionManager, 'amqp://guest:s3cret@127.0.0.1:5699', logger);

    connection.emit('connectFailed', { err: refused, url: 'amqp://guest:s3cret@127.0.0.1:5699' });
    connection.emit('connectFailed', { err: refused, url: 'amqp://guest:s3cret@127.0.0.1:5699' });
    connection.emit('connect', {});

    expect(logger.warn.mock.calls).toEqual([['RabbitMQ at 127.0.0.1:5699 is not reachable (connection refused); retrying']]);
    expect(logger.log.mock.calls).toEqual([['RabbitMQ at 127.0.0.1:5699 is reachable again']]);
  });
});
