import { Module, type DynamicModule } from '@nestjs/common';
import { ObservabilityModule } from '@smsq/platform';
import { Chance } from './chance/chance.js';
import { GatewaySimConfig } from './config/gateway-sim-config.js';
import { RepliesModule } from './replies/replies.module.js';
import { SendsModule } from './sends/sends.module.js';
import { SmsGateModule } from './smsgate/smsgate.module.js';

@Module({})
export class AppModule {
  /**
   * `random` replaces `Math.random`, so tests decide which sends fail and which get replies; `now`
   * replaces the system time of the SMSGate phone.
   */
  static register(config: GatewaySimConfig, options: { random?: () => number; now?: () => number } = {}): DynamicModule {
    const api = config.smsgate === undefined ? [SendsModule, RepliesModule] : [SmsGateModule.register(config.smsgate, { now: options.now })];
    return {
      module: AppModule,
      global: true,
      imports: [ObservabilityModule.forService('gateway-sim'), ...api],
      providers: [
        { provide: GatewaySimConfig, useValue: config },
        { provide: Chance, useValue: new Chance(options.random) },
      ],
      exports: [GatewaySimConfig, Chance],
    };
  }
}
