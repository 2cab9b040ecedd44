import { IsEntityId } from '../validation.js';

export class PhoneGetQuery {
  @IsEntityId() phoneId!: number;
}
