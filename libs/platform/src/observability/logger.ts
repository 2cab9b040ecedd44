import { ConsoleLogger, type LoggerService } from '@nestjs/common';
import type { CommonConfig } from '../config/common-config.js';

/** Structured JSON lines in production, readable lines in development. */
export function createLogger(service: string, config: Pick<CommonConfig, 'logFormat'>): LoggerService {
  return config.logFormat === 'json'
    ? new ConsoleLogger({ json: true, colors: false })
    : new ConsoleLogger({ prefix: service, colors: process.stdout.isTTY, logLevels: ['log', 'warn', 'error', 'fatal'] });
}
