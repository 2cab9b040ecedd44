import { Module } from '@nestjs/common';
import { SharedModule } from '../shared/shared.module.js';
import { ClientAreaController } from './client-area.controller.js';
import { ConversationsService } from './conversations.service.js';
import { InboxService } from './inbox.service.js';
import { KeysService } from './keys.service.js';
import { OptOutsService } from './opt-outs.service.js';
import { OverviewService } from './overview.service.js';
import { PhonesService } from './phones.service.js';
import { SendService } from './send.service.js';
import { SmppCredentialsService } from './smpp-credentials.service.js';
import { TasksService } from './tasks.service.js';
import { TemplatesService } from './templates.service.js';
import { WebhooksService } from './webhooks.service.js';

@Module({
  imports: [SharedModule],
  controllers: [ClientAreaController],
  providers: [OverviewService, KeysService, PhonesService, TasksService, InboxService, SendService, WebhooksService, OptOutsService, TemplatesService, ConversationsService, SmppCredentialsService],
})
export class ClientAreaModule {}
