import { Logger } from '@nestjs/common';
import { CONNECTION_FAILED_MESSAGE, DISCONNECTED_RMQ_MESSAGE } from '@nestjs/microservices/constants.js';
import type { AmqpConnectionManager } from 'amqp-connection-manager';
import { connectionBack, connectionLost } from '../observability/dependency-outages.js';

/**
 * The logger of Nest's RMQ server and clients. Nest logs a lost or failed broker connection in two
 * lines, the second the error with its stack, for each connection; `reportBrokerOutages` says it
 * in one line for the whole process instead. What else the transport logs passes through.
 */
export class BrokerTransportLogger extends Logger {
  /** Nest logs the error right after its line about the connection, in the same tick. */
  private connectionErrorFollows = false;

  override error(message: unknown, ...optionalParams: unknown[]): void {
    if (message === DISCONNECTED_RMQ_MESSAGE || message === CONNECTION_FAILED_MESSAGE) {
      this.connectionErrorFollows = true;
      process.nextTick(() => (this.connectionErrorFollows = false));
      return;
    }
    if (this.connectionErrorFollows && typeof message !== 'string') {
      this.connectionErrorFollows = false;
      return;
    }
    super.error(message, ...optionalParams);
  }
}

/** One line when the broker is lost or cannot be reached (`RabbitMQ at 127.0.0.1:5672 is not reachable (connection refused); retrying`), one when it is back. */
export function reportBrokerOutages(connection: AmqpConnectionManager, amqpUrl: string, logger: Pick<Logger, 'warn' | 'log'> = new Logger('Broker')): void {
  const dependency = { kind: 'RabbitMQ', url: amqpUrl } as const;
  connection.on('connectFailed', ({ err }) => connectionLost(dependency, connection, err, logger));
  connection.on('disconnect', ({ err }) => connectionLost(dependency, connection, err, logger));
  connection.on('connect', () => connectionBack(dependency, connection, logger));
}
