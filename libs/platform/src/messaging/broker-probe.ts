import amqplib, { type Channel } from 'amqplib';

/**
 * Opening a connection to the broker (TCP and AMQP's handshake) gives up after this long. Short:
 * an attempt begun while the broker was silent holds the service off it until it gives up, even
 * once the broker answers again; a handshake with a broker that answers takes milliseconds.
 */
export const CONNECT_TIMEOUT_MS = 2_000;
/** The same for the service's queue declaration before it starts, when a slow answer stops the start. */
export const START_CONNECT_TIMEOUT_MS = 30_000;
/** A broker gone silent is noticed after two to three missed heartbeats: within 10 s. */
export const HEARTBEAT_S = 3;
const FRESH_PROBE_TIMEOUT_MS = 2_000;

/** `amqpUrl` asking for smsq's heartbeat, for a connection opened with amqplib itself. */
export function withHeartbeat(amqpUrl: string): string {
  const url = new URL(amqpUrl);
  url.searchParams.set('heartbeat', String(HEARTBEAT_S));
  return url.toString();
}

/** Whether the broker answers a connection made afresh: the `reachable` side of a broker check. */
export async function brokerAnswersAfresh(amqpUrl: string): Promise<void> {
  const connection = await amqplib.connect(withHeartbeat(amqpUrl), { timeout: FRESH_PROBE_TIMEOUT_MS });
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

  constructor(private readonly channel: () => Channel | undefined) {}

  roundTrip(): Promise<void> {
    this.pending ??= this.checkExchange().finally(() => (this.pending = undefined));
    return this.pending;
  }

  private async checkExchange(): Promise<void> {
    const channel = this.channel();
    if (!channel) throw new Error('no channel to the broker');
    // A built-in exchange: asking for one that is missing would close the channel, a queue can be missing for a moment.
    await channel.checkExchange('amq.direct');
  }
}
