import { ValidationPipe } from '@nestjs/common';

/** Payloads from the broker are checked as strictly as HTTP bodies: unknown fields are refused. */
export function payloadValidationPipe(): ValidationPipe {
  return new ValidationPipe({ transform: true, whitelist: true, forbidNonWhitelisted: true, validateCustomDecorators: false });
}
