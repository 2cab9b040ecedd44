import { ClientRMQ } from '@nestjs/microservices';
import type { Channel } from 'amqplib';
import { ChannelProbe } from './broker-probe.js';
import { BrokerTransportLogger, reportBrokerOutages } from './broker-outages.js';

/**
 * Nest's RMQ client, publishing on a confirm channel (stated here rather than left to the
 * library's default), so a send or emit completes only once the broker has taken the message,
 * and a message the broker refuses fails instead of vanishing.
 */
export class ServiceQueueClient extends ClientRMQ {
  private currentChannel: Channel | undefined;
  private readonly channelProbe = new ChannelProbe(() => this.currentChannel);
  private brokerBlocked = false;
  protected override readonly logger = new BrokerTransportLogger('ClientProxy');

  /** The broker holds this client's publishing back (a memory or disk alarm): nothing a reconnect would mend. */
  get blocked(): boolean {
    return this.brokerBlocked;
  }

  /** A round trip to the broker on this client's own channel (connecting first, if it never has). */
  async probe(): Promise<void> {
    await this.connect();
    await this.channelProbe.roundTrip();
  }

  override createClient(): ReturnType<ClientRMQ['createClient']> {
    const client = super.createClient();
    client.on('blocked', () => (this.brokerBlocked = true));
    client.on('unblocked', () => (this.brokerBlocked = false));
    client.on('disconnect', () => (this.brokerBlocked = false));
    const [amqpUrl] = this.options.urls ?? [];
    if (typeof amqpUrl === 'string') reportBrokerOutages(client, amqpUrl);
    return client;
  }

  override createChannel(): Promise<void> {
    return new Promise((resolve) => {
      this.channel = this.client!.createChannel({
        json: false,
        confirm: true,
        // A queue the broker refuses to declare (one of an earlier version, 406) closes the channel;
        // requests then fail by their timeout, as if the service were down, instead of crashing this process.
        setup: (channel: Channel) => {
          this.currentChannel = channel;
          return this.setupChannel(channel, resolve).catch((error: unknown) => this.logger.error(`cannot use queue ${this.queue}: ${error instanceof Error ? error.message : String(error)}`));
        },
      });
      // The channel wrapper reports a publish that failed on a channel closing under it (a refused
      // queue, a broker going away) as an 'error' event; unheard, that event would end the process.
      // The message itself is failed or retried by the wrapper, so a warning is all there is to do.
      this.channel.on('error', (error: Error) => this.logger.warn(`publishing to ${this.queue} failed: ${error.message}`));
    });
  }

  /** A channel the broker already closed (a refused queue) cannot be closed again; the connection still is. */
  override async close(): Promise<void> {
    try {
      await super.close();
    } catch (error) {
      if (!(error instanceof Error && error.name === 'IllegalOperationError')) throw error;
      await this.client?.close();
      this.channel = null;
      this.client = null;
    }
  }
}
