import { IsEmail, IsString, Length } from 'class-validator';

/** Creates a dashboard administrator (the `admin create` command). */
export class AdminCreateCommand {
  @IsEmail() @Length(3, 254) email!: string;
  @IsString() @Length(12, 200) password!: string;
}

export interface AdminCreated {
  userId: number;
}
