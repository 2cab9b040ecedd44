import { Module } from '@nestjs/common';
import { DueSignals } from './due-signals.js';

/** Needs the `Redis` connection of the platform's RedisModule, registered once by the app module. */
@Module({
  providers: [DueSignals],
  exports: [DueSignals],
})
export class DueSignalsModule {}
