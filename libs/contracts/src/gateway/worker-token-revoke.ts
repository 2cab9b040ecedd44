import { IsEntityId } from '../validation.js';

export class WorkerTokenRevokeCommand {
  @IsEntityId() tokenId!: number;
}
