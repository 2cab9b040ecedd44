import { Module } from '@nestjs/common';
import { OutboxRelay } from './outbox-relay.js';

/** Inbox's outbox: events about stored replies, relayed to dispatch. */
@Module({ providers: [OutboxRelay] })
export class OutboxModule {}
