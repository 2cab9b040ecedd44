import { IsIn, IsNumber, IsOptional, Max, Min } from 'class-validator';
import { SEND_FAILURE_KINDS, type SendFailureKind } from '../messages/send-failure-kinds.js';

export class FailureRequest {
  /** Chance (0..1) that a send fails. */
  @IsOptional() @IsNumber({ allowNaN: false, allowInfinity: false }) @Min(0) @Max(1) rate?: number;
  /** How it fails: `generic-failure` (final), `no-service`, `radio-off`, `null-pdu`, `limit-exceeded` (refused for volume), `ttl-expired` (nothing sent). */
  @IsOptional() @IsIn(SEND_FAILURE_KINDS) kind?: SendFailureKind;
}
