import { Module } from '@nestjs/common';
import { RepliesModule } from '../replies/replies.module.js';
import { SendsController } from './sends.controller.js';
import { SendsService } from './sends.service.js';
import { SentMessages } from './sent-messages.js';

@Module({ imports: [RepliesModule], controllers: [SendsController], providers: [SendsService, { provide: SentMessages, useFactory: () => new SentMessages() }] })
export class SendsModule {}
