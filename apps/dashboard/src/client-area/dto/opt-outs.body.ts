import { MAX_OPT_OUTS_PER_REQUEST, MAX_OWN_KEYWORDS } from '@smsq/contracts';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsBoolean, IsString, Length } from 'class-validator';

/** POST /api/opt-outs: numbers typed or imported from a CSV, read by the gateway as recipients. */
export class OptOutsAddBody {
  @IsArray() @ArrayMinSize(1) @ArrayMaxSize(MAX_OPT_OUTS_PER_REQUEST) @IsString({ each: true }) @Length(1, 64, { each: true }) numbers!: string[];
}

/** PUT /api/opt-out-settings: the whole settings. */
export class OptOutSettingsBody {
  @IsArray() @ArrayMaxSize(MAX_OWN_KEYWORDS) @IsString({ each: true }) @Length(1, 32, { each: true }) optOutWords!: string[];
  @IsArray() @ArrayMaxSize(MAX_OWN_KEYWORDS) @IsString({ each: true }) @Length(1, 32, { each: true }) optInWords!: string[];
  @IsBoolean() cancelQueued!: boolean;
}
