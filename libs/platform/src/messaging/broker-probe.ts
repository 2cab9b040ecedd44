import amqplib, { type Channel } from 'amqplib';

/** Opening a connection to the broker (TCP and AMQP's handshake) gives up after this long. */
export const CONNECT_TIMEOUT_MS = 5_000;
const FRESH_PROBE_TIMEOUT_MS = 2_000;

/** Whether the broker answers a connection made afresh: the `reachable` side of a broker check. */
export async function brokerAnswersAfresh(amqpUrl: string): Promise<void> {
  const connection = await amqplib.connect(amqpUrl, { timeout: FRESH_PROBE_TIMEOUT_MS });
  connection.on('error', () => undefined);
  await connection.close();
}

/**
 * A round trip to the broker on a channel in use: the channel's `status` only changes once a
 * heartbeat is missed, a round trip shows a silent connection at once. One at a time, so that
 * readiness asked often while the broker is silent never piles requests on the channel.
 */
export class ChannelProbe {
  private pending: Promise<void> | undefined;

  constructor(
    private readonly queue: string,
    private readonly channel: () => Channel | undefined,
  ) {}

  roundTrip(): Promise<void> {
    this.pending ??= this.checkQueue().finally(() => (this.pending = undefined));
    return this.pending;
  }

  private async checkQueue(): Promise<void> {
    const channel = this.channel();
    if (!channel) throw new Error('no channel to the broker');
    await channel.checkQueue(this.queue);
  }
}
