import { IsEntityId } from '../validation.js';

export class KeyListQuery {
  @IsEntityId() clientId!: number;
}

/** An API key as it may be shown again: never the key itself. */
export interface KeyView {
  id: number;
  clientId: number;
  prefix: string;
  name: string | null;
  createdAt: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
}
