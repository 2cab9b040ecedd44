import { Module } from '@nestjs/common';
import { RetentionPruner } from '@smsq/platform';
import { GatewayConfig } from '../config/gateway-config.js';
import { GatewayDatabase } from '../database/gateway-database.js';
import { gatewayPrunes } from './gateway-retention.js';

/** Prunes what the gateway keeps only for a while, every SMSQ_RETENTION_INTERVAL_S. */
@Module({
  providers: [
    {
      provide: RetentionPruner,
      inject: [GatewayDatabase, GatewayConfig],
      useFactory: (db: GatewayDatabase, config: GatewayConfig) => new RetentionPruner('gateway', db, gatewayPrunes(config), config.retentionIntervalS),
    },
  ],
})
export class RetentionModule {}
