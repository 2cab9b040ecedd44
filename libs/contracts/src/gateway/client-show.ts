import type { AccountView } from '../billing/account-show.js';
import { IsBoolean, IsString, Length } from 'class-validator';
import { HasNoNul, IsEntityId } from '../validation.js';

/** `gateway.client.show.v1` answers `ClientDetails` (reading billing); `gateway.client.get.v1` only the `ClientView`. */
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

/**
 * A client's own time zone (an IANA name, checked by the gateway as at create), set by the client
 * on the dashboard or by an admin; answered the `ClientView`.
 */
export class ClientSetTimezoneCommand {
  @IsEntityId() clientId!: number;
  @IsString() @Length(1, 64) @HasNoNul() timezone!: string;
}

export interface ClientDetails {
  client: ClientView;
  account: AccountView;
}
