import { ClientRMQ } from '@nestjs/microservices';
import type { Channel } from 'amqplib';

/**
 * Nest's RMQ client, publishing on a confirm channel (stated here rather than left to the
 * library's default), so a send or emit completes only once the broker has taken the message,
 * and a message the broker refuses fails instead of vanishing.
 */
export class ServiceQueueClient extends ClientRMQ {
  override createChannel(): Promise<void> {
    return new Promise((resolve) => {
      this.channel = this.client!.createChannel({ json: false, confirm: true, setup: (channel: Channel) => this.setupChannel(channel, resolve) });
    });
  }
}
