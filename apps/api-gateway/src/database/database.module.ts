import { Global, Module } from '@nestjs/common';
import { GatewayDatabase } from './gateway-database.js';

@Global()
@Module({ providers: [GatewayDatabase], exports: [GatewayDatabase] })
export class DatabaseModule {}
