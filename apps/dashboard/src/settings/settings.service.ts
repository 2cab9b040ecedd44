import { Injectable } from '@nestjs/common';
import type { ClientView } from '@smsq/contracts';
import type { ClientSettings } from '@smsq/dashboard-api';
import { ClientDirectory } from '../shared/client-directory.js';

@Injectable()
export class SettingsService {
  constructor(private readonly directory: ClientDirectory) {}

  async settings(clientId: number): Promise<ClientSettings> {
    return settingsOf(await this.directory.client(clientId));
  }

  /** The gateway keeps every copy of the zone right (its key cache, dispatch's local times); the dashboard keeps none. */
  async setTimeZone(clientId: number, timeZone: string): Promise<ClientSettings> {
    return settingsOf(await this.directory.setTimeZone(clientId, timeZone));
  }
}

function settingsOf(client: ClientView): ClientSettings {
  return { clientName: client.name, timeZone: client.timezone };
}
