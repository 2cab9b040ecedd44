import { ConsoleLogger, type LoggerService } from '@nestjs/common';
import type { CommonConfig } from '../config/common-config.js';

/** Structured JSON lines in production, readable lines in development; each names its service. */
export function createLogger(service: string, config: Pick<CommonConfig, 'logFormat'>): LoggerService {
  return config.logFormat === 'json'
    ? new ServiceJsonLogger(service)
    : new ConsoleLogger({ prefix: service, colors: process.stdout.isTTY, logLevels: ['log', 'warn', 'error', 'fatal'] });
}

/** Nest's JSON lines with a `service` field, which they otherwise lack: services may share a process (and its pid). */
class ServiceJsonLogger extends ConsoleLogger {
  constructor(private readonly service: string) {
    super({ json: true, colors: false });
  }

  protected override getJsonLogObject(...[message, options]: Parameters<ConsoleLogger['getJsonLogObject']>): ReturnType<ConsoleLogger['getJsonLogObject']> {
    return { service: this.service, ...super.getJsonLogObject(message, options) };
  }
}
