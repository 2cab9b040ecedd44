import { IsOptional, IsString, Matches } from 'class-validator';
import { IsEntityId } from '../validation.js';

/**
 * Whose reply is this? Profile A: the client owning the phone. Profile B: the client whose task
 * last went from that gateway (any gateway, for an unbound token) to that number.
 */
export class ReplyOwnerQuery {
  @IsOptional() @IsEntityId() phoneId?: number;
  @IsString() @Matches(/^\+[1-9]\d{5,15}$/) from!: string;
}

/** clientId null: nobody could be found; the reply is kept all the same. */
export interface ReplyOwner {
  clientId: number | null;
  phoneId: number | null;
}
