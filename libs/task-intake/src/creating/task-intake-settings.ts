import type { Profile } from '@smsq/contracts';
import type { EnvReader } from '@smsq/platform';

/** What creating tasks reads from the configuration; each service that creates tasks provides it (its config class). */
export abstract class TaskIntakeSettings {
  abstract readonly profile: Profile;
  /** SMSQ_DEFAULT_REGION, Profile B: the region a recipient without country code is read in; none makes such a recipient unusable. */
  abstract readonly defaultRegion: string | undefined;
  /** SMSQ_CREATE_TIMEOUT_MS: how long a create waits for dispatch before settling its outcome itself. */
  abstract readonly createTimeoutMs: number;
  /** SMSQ_CREATE_BATCHES_IN_FLIGHT: how many batches of creates may be on their way to dispatch at once; more creates wait for the next batch. */
  abstract readonly createBatchesInFlight: number;
}

/** The settings as every service that creates tasks reads them, so the API and SMPP cannot disagree. */
export function readTaskIntakeSettings(env: EnvReader): Omit<TaskIntakeSettings, 'profile'> {
  const defaultRegion = env.optionalString('SMSQ_DEFAULT_REGION')?.toUpperCase();
  env.require(defaultRegion === undefined || /^[A-Z]{2}$/.test(defaultRegion), `SMSQ_DEFAULT_REGION must be a two-letter ISO country code, got ${JSON.stringify(defaultRegion)}`);
  return {
    defaultRegion,
    createTimeoutMs: env.int('SMSQ_CREATE_TIMEOUT_MS', 8_000, { min: 200, max: 30_000 }),
    createBatchesInFlight: env.int('SMSQ_CREATE_BATCHES_IN_FLIGHT', 4, { min: 1, max: 64 }),
  };
}
