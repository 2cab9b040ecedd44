import type { Provider, Type } from '@nestjs/common';
import type { SqlSession } from '@smsq/persistence';
import { AbandonedCreates } from './creating/abandoned-creates.js';
import { AbandonedCreatesRelay } from './creating/abandoned-creates.relay.js';
import { CreateBatcher } from './creating/create-batcher.js';
import { TaskCreator } from './creating/task-creator.js';
import { TaskIntakeSettings } from './creating/task-intake-settings.js';

/**
 * What a service that creates tasks adds to its module: its config class as the intake's settings,
 * its database (and schema) for the abandoned creates, and the creator, batcher and relay. It
 * needs the dispatch and billing service clients.
 */
export function taskIntakeProviders(options: { settings: Type<TaskIntakeSettings>; database: Type<SqlSession>; schema: string }): Provider[] {
  return [
    { provide: TaskIntakeSettings, useExisting: options.settings },
    { provide: AbandonedCreates, useFactory: (db: SqlSession) => new AbandonedCreates(db, options.schema), inject: [options.database] },
    CreateBatcher,
    TaskCreator,
    AbandonedCreatesRelay,
  ];
}
