import type { AccountView } from '../billing/account-show.js';
import { IsBoolean } from 'class-validator';
import { IsEntityId } from '../validation.js';

export class ClientShowQuery {
  @IsEntityId() clientId!: number;
}

export interface ClientView {
  id: number;
  name: string;
  timezone: string;
  createdAt: string;
  /** While set, an admin has the client disabled: its API keys answer 401. */
  disabledAt: string | null;
}

/** An admin disables a client (its API keys answer 401 at once, nothing is lost) or enables it again; answered the `ClientView`. */
export class ClientSetDisabledCommand {
  @IsEntityId() clientId!: number;
  @IsBoolean() disabled!: boolean;
}

export interface ClientDetails {
  client: ClientView;
  account: AccountView;
}
