import { IsOptional } from 'class-validator';
import { IsEntityId } from '../validation.js';

/** Worker tokens, all or one phone's. */
export class WorkerTokenListQuery {
  @IsOptional() @IsEntityId() phoneId?: number;
}

export interface WorkerTokenView {
  id: number;
  phoneId: number | null;
  prefix: string;
  createdAt: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
}
