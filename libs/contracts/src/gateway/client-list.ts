import { IsInt, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';
import type { ClientView } from './client-show.js';

/** Clients for an admin, newest first; the search matches the name (or the id, when it is a number). */
export class ClientListQuery {
  @IsOptional() @IsString() @MaxLength(200) search?: string;
  @IsInt() @Min(1) page!: number;
  @IsInt() @Min(1) @Max(200) pageSize!: number;
}

export interface ClientPage {
  items: ClientView[];
  total: number;
  page: number;
  pageSize: number;
}
