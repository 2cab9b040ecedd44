import { Injectable } from '@nestjs/common';
import type { WebhookEndpointView, WebhookEventType } from '@smsq/contracts';
import { DispatchDatabase } from '../database/dispatch-database.js';
import type { WebhookEndpoint } from '../generated/prisma/client.js';

@Injectable()
export class WebhookEndpointsRepository {
  constructor(private readonly db: DispatchDatabase) {}

  async insert(clientId: number, url: string, events: readonly WebhookEventType[], secret: string): Promise<WebhookEndpointView> {
    return viewOf(await this.db.webhookEndpoint.create({ data: { clientId, url, events: [...events], secret } }));
  }

  async ofClient(clientId: number): Promise<WebhookEndpointView[]> {
    return (await this.db.webhookEndpoint.findMany({ where: { clientId }, orderBy: { id: 'asc' } })).map(viewOf);
  }

  count(clientId: number): Promise<number> {
    return this.db.webhookEndpoint.count({ where: { clientId } });
  }

  async findOfClient(clientId: number, id: number): Promise<WebhookEndpointView | null> {
    const row = await this.db.webhookEndpoint.findFirst({ where: { id, clientId } });
    return row ? viewOf(row) : null;
  }

  /** A new secret; the current one keeps signing until `graceUntil`. Null when the client has no such endpoint. */
  async rotateOfClient(clientId: number, id: number, secret: string, graceUntil: Date): Promise<WebhookEndpointView | null> {
    const rows = await this.db.sql.$queryRaw<WebhookEndpoint[]>`
      UPDATE "dispatch"."webhook_endpoints"
         SET previous_secret = secret, previous_secret_until = ${graceUntil}, secret = ${secret}
       WHERE id = ${id} AND client_id = ${clientId}
      RETURNING id, client_id AS "clientId", url, events, active, disabled_reason AS "disabledReason", created_at AS "createdAt"`;
    return rows[0] ? viewOf(rows[0]) : null;
  }

  /** Active again, its failure record cleared; null when the client has no such endpoint. */
  async enableOfClient(clientId: number, id: number): Promise<WebhookEndpointView | null> {
    const rows = await this.db.sql.$queryRaw<WebhookEndpoint[]>`
      UPDATE "dispatch"."webhook_endpoints" SET active = true, disabled_reason = NULL, failing_since = NULL
       WHERE id = ${id} AND client_id = ${clientId}
      RETURNING id, client_id AS "clientId", url, events, active, disabled_reason AS "disabledReason", created_at AS "createdAt"`;
    return rows[0] ? viewOf(rows[0]) : null;
  }

  /** False when the client has no such endpoint; its deliveries go with it. */
  async deleteOfClient(clientId: number, id: number): Promise<boolean> {
    return (await this.db.webhookEndpoint.deleteMany({ where: { id, clientId } })).count === 1;
  }
}

function viewOf(row: Pick<WebhookEndpoint, 'id' | 'url' | 'events' | 'active' | 'disabledReason' | 'createdAt'>): WebhookEndpointView {
  return { id: row.id, url: row.url, events: row.events as WebhookEventType[], active: row.active, disabledReason: row.disabledReason, createdAt: row.createdAt.toISOString() };
}
