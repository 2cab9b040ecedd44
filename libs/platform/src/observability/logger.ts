import { ConsoleLogger, type LoggerService } from '@nestjs/common';
import type { CommonConfig } from '../config/common-config.js';
import { joinProcess, processLabel } from './process-services.js';

/** Structured JSON lines in production, readable lines in development; each names its service. */
export function createLogger(service: string, config: Pick<CommonConfig, 'logFormat'>): LoggerService {
  joinProcess(service);
  return config.logFormat === 'json'
    ? new ServiceJsonLogger()
    : new ConsoleLogger({ prefix: service, colors: process.stdout.isTTY, logLevels: ['log', 'warn', 'error', 'fatal'] });
}

/**
 * Nest's JSON lines with a `service` field, which they otherwise lack. Services sharing a process
 * share Nest's static logger too (each app replaces it), so a line names the process's services
 * (`billing+dispatch+…`); its `context` names the class, or the service, that wrote it.
 */
class ServiceJsonLogger extends ConsoleLogger {
  constructor() {
    super({ json: true, colors: false });
  }

  protected override getJsonLogObject(...[message, options]: Parameters<ConsoleLogger['getJsonLogObject']>): ReturnType<ConsoleLogger['getJsonLogObject']> {
    return { service: processLabel(), ...super.getJsonLogObject(message, options) };
  }
}
