import type { AccountView } from '../billing/account-show.js';
import { IsEntityId } from '../validation.js';

export class ClientShowQuery {
  @IsEntityId() clientId!: number;
}

export interface ClientView {
  id: number;
  name: string;
  timezone: string;
  createdAt: string;
}

export interface ClientDetails {
  client: ClientView;
  account: AccountView;
}
