import { Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { readFileSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { createServer as createTlsServer } from 'node:tls';
import { BindAuthenticator } from '../binds/bind-authenticator.js';
import { BindRegistry, type BoundSession } from '../binds/bind-registry.js';
import { SmppConfig } from '../config/smpp-config.js';
import { ReceiverDelivery } from '../delivery/receiver-delivery.js';
import { TaskQueriesService } from '../queries/task-queries.service.js';
import { SubmitService } from '../submits/submit.service.js';
import type { SessionServices } from './session-services.js';
import { SmppSession } from './smpp-session.js';
import { LongSubmits } from './long-submits.js';

/** How long a deliver_sm waits for its deliver_sm_resp. */
const RESPONSE_TIMEOUT_MS = 10_000;

/** The SMPP ports: plain TCP, and TLS where a certificate is set. Each connection is an SmppSession. */
@Injectable()
export class SmppListener implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(SmppListener.name);
  private readonly servers: Server[] = [];
  private readonly sockets = new Set<Socket>();
  private readonly services: SessionServices;

  constructor(
    private readonly config: SmppConfig,
    registry: BindRegistry,
    authenticator: BindAuthenticator,
    submits: SubmitService,
    queries: TaskQueriesService,
    delivery: ReceiverDelivery,
    parts: LongSubmits,
  ) {
    this.services = {
      authenticate: (systemId, password) => authenticator.authenticate(systemId, password),
      submit: (request) => submits.submit(request),
      query: (clientId, messageId) => queries.query(clientId, messageId),
      cancel: (clientId, messageId) => queries.cancel(clientId, messageId),
      parts,
      registry,
      receiverBound: () => delivery.soon(),
    };
  }

  async onApplicationBootstrap(): Promise<void> {
    const accept = (socket: Socket) => this.accept(socket);
    await this.listen(createServer(accept), this.config.smppPort, 'SMPP');
    if (this.config.tls) {
      const tls = createTlsServer({ cert: readFileSync(this.config.tls.certFile), key: readFileSync(this.config.tls.keyFile) }, accept);
      await this.listen(tls, this.config.tlsPort, 'SMPP over TLS');
    }
  }

  /** Binds are told (unbind) and closed; what they were owed stays in the database for the next bind. */
  async onApplicationShutdown(): Promise<void> {
    this.services.parts.close();
    for (const session of this.services.registry.all()) session.close('smsq is stopping');
    await Promise.all(this.servers.map((server) => new Promise<void>((resolve) => server.close(() => resolve()))));
    for (const socket of this.sockets) socket.destroy();
  }

  /** The bound sessions, for tests. */
  sessions(): BoundSession[] {
    return this.services.registry.all();
  }

  private accept(socket: Socket): void {
    this.sockets.add(socket);
    socket.on('close', () => this.sockets.delete(socket));
    new SmppSession(socket, this.services, { enquireMs: this.config.enquireS * 1000, responseTimeoutMs: RESPONSE_TIMEOUT_MS });
  }

  private listen(server: Server, port: number, what: string): Promise<void> {
    this.servers.push(server);
    return new Promise((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, this.config.host, () => {
        server.off('error', reject);
        // Past the start, a failed accept (out of file descriptors) is logged; the server keeps listening.
        server.on('error', (error) => this.logger.error(`${what}: ${error.message}`));
        this.logger.log(`${what} on ${this.config.host}:${port}`);
        resolve();
      });
    });
  }
}
