import { Module } from '@nestjs/common';
import { SharedModule } from '../shared/shared.module.js';
import { UsersModule } from '../users/users.module.js';
import { AdminAreaController } from './admin-area.controller.js';
import { AdminClientsService } from './admin-clients.service.js';
import { AdminGatewaysService } from './admin-gateways.service.js';
import { AdminSystemService } from './admin-system.service.js';
import { AdminWorkerTokensService } from './admin-worker-tokens.service.js';

@Module({
  imports: [SharedModule, UsersModule],
  controllers: [AdminAreaController],
  providers: [AdminClientsService, AdminGatewaysService, AdminWorkerTokensService, AdminSystemService],
})
export class AdminAreaModule {}
