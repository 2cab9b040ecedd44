import { ServerRMQ, type OutgoingResponse, type RmqContext, type RmqOptions } from '@nestjs/microservices';
import type { Channel, ConsumeMessage } from 'amqplib';
import { randomBytes } from 'node:crypto';
import type { AmqpConnectionManager } from 'amqp-connection-manager';
import { ChannelProbe } from './broker-probe.js';
import { BrokerTransportLogger, reportBrokerOutages } from './broker-outages.js';
import type { OpenDeliveries } from './open-deliveries.js';

/**
 * Nest's RMQ server with two additions: it can stop consuming while the messages it holds are
 * still handled and acknowledged (a graceful shutdown), and a message whose processing fails
 * before any handler took it is dead-lettered instead of staying unacknowledged, where it would
 * hold a prefetch slot for good.
 */
export class ServiceQueueServer extends ServerRMQ {
  private consumingChannel: Channel | undefined;
  private consuming = true;
  /** A round trip on the channel this server consumes on. */
  readonly probe = new ChannelProbe(() => this.consumingChannel);
  protected override readonly logger = new BrokerTransportLogger('Server');

  constructor(
    options: Required<RmqOptions>['options'],
    private readonly deliveries: OpenDeliveries,
  ) {
    // A tag of our own, so that this consumer (and only it) can be cancelled.
    super({ ...options, consumerTag: `smsq-${process.pid}-${randomBytes(4).toString('hex')}` });
  }

  private get consumerTag(): string {
    return this.options.consumerTag as string;
  }

  override async createClient<T = AmqpConnectionManager>(): Promise<T> {
    const connection = await super.createClient<AmqpConnectionManager>();
    const [amqpUrl] = this.urls;
    if (typeof amqpUrl === 'string') reportBrokerOutages(connection, amqpUrl);
    return connection as T;
  }

  override async setupChannel(channel: Channel, callback: () => void): Promise<void> {
    this.consumingChannel = channel;
    // After a reconnect during shutdown, the new channel only sends replies and acknowledgements.
    if (!this.consuming) return callback();
    await super.setupChannel(channel, callback);
  }

  override async handleMessage(delivered: Record<string, unknown> | null, channel: Channel): Promise<void> {
    if (delivered === null) return super.handleMessage(delivered as never, channel);
    const message = delivered as unknown as ConsumeMessage;
    this.deliveries.received(message);
    try {
      await super.handleMessage(message, channel);
    } catch (error) {
      if (!this.deliveries.isHandled(message)) {
        this.logger.error(`message not handled, dead-lettered: ${error instanceof Error ? error.message : String(error)}`);
        rejectQuietly(channel, message);
      }
    } finally {
      // Without a handler, Nest has already settled it (unknown patterns are rejected) or it was rejected above.
      if (!this.deliveries.isHandled(message)) this.deliveries.settled(message);
    }
  }

  /**
   * Nest reads every pattern as JSON first, and smsq's are plain names (`billing.debit-batch.v1`),
   * so each message's failed parse threw and built a stack trace, which at rest costs more than
   * the lookup itself. A pattern that could be JSON is still read Nest's way.
   */
  protected override getRouteFromPattern(pattern: string): string {
    return /^[{["]/.test(pattern) ? super.getRouteFromPattern(pattern) : this.normalizePattern(pattern);
  }

  /** Nest's reply, with the publication tracked so that a shutdown waits for it. */
  override sendMessage<T = OutgoingResponse>(message: T, replyTo: string | undefined, correlationId: string, _context: RmqContext): void {
    // A message without a reply address is a request nobody waits for.
    if (!replyTo || !this.channel) return;
    const outgoing = this.serializer.serialize(message as OutgoingResponse) as { options?: object };
    const { options, ...packet } = outgoing;
    this.deliveries.replying(this.channel.sendToQueue(replyTo, Buffer.from(JSON.stringify(packet)), { correlationId, ...options }));
  }

  /** Asks the broker for no more messages; those already received are still handled. */
  async stopConsuming(): Promise<void> {
    this.consuming = false;
    await this.consumingChannel?.cancel(this.consumerTag).catch(() => undefined);
  }
}

function rejectQuietly(channel: Channel, message: ConsumeMessage): void {
  try {
    channel.nack(message, false, false);
  } catch {
    // The channel is gone: the broker gives the message to the next consumer.
  }
}
