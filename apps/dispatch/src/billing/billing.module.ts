import { Module } from '@nestjs/common';
import { BillingClient } from './billing.client.js';

/** Needs the `billing` ServiceClient, registered once by the app module. */
@Module({
  providers: [BillingClient],
  exports: [BillingClient],
})
export class BillingModule {}
