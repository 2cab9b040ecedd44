import { IsInt, IsOptional, IsString, Length, Min } from 'class-validator';
import { IsEntityId } from '../validation.js';

/** Each client's templates, at most. */
export const MAX_TEMPLATES = 100;
export const TEMPLATE_NAME_MAX_LENGTH = 100;

/** `{name}` in a template: a name of letters, digits, `_`, `-` or `.`, filled from create-task's `variables`. */
export const PLACEHOLDER = /\{([\p{L}\p{N}_.-]{1,64})\}/gu;

/** The placeholders of a template body, each once, in order of first use. */
export function placeholdersIn(body: string): string[] {
  return [...new Set([...body.matchAll(PLACEHOLDER)].map((match) => match[1]!))];
}

export interface TemplateView {
  id: number;
  name: string;
  body: string;
  /** Its `{placeholders}`, each once. */
  placeholders: string[];
  createdAt: string;
  updatedAt: string;
}

/** The dashboard's template changes go through the gateway, whose rules the public API applies too. */
export class TemplateListQuery {
  @IsEntityId() clientId!: number;
}

/** Creates (no id) or replaces (id) a template: the gateway checks name and body as POST and PUT /smsapi/templates do; answered `TemplateView`. */
export class TemplateSaveCommand {
  @IsEntityId() clientId!: number;
  @IsOptional() @IsInt() @Min(1) id?: number;
  @IsString() @Length(0, TEMPLATE_NAME_MAX_LENGTH * 4) name!: string;
  @IsString() @Length(0, 20_000) body!: string;
}

export class TemplateDeleteCommand {
  @IsEntityId() clientId!: number;
  @IsInt() @Min(1) id!: number;
}
