import { IsOptional } from 'class-validator';
import { IsEntityId } from '../validation.js';

/** Issues a worker token, bound to one phone or gateway, or (Profile B) unbound. */
export class WorkerTokenCreateCommand {
  @IsOptional() @IsEntityId() phoneId?: number;
}

export interface WorkerTokenCreated {
  tokenId: number;
  prefix: string;
  workerToken: string;
}
