import { IsString, Length } from 'class-validator';

/** POST and PUT /api/templates: the gateway checks them as /smsapi/templates does. */
export class TemplateBodyDto {
  @IsString() @Length(0, 400) name!: string;
  @IsString() @Length(0, 6_400) body!: string;
}
