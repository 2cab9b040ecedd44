import { ConsoleLogger, type LoggerService, type LogLevel } from '@nestjs/common';
import type { CommonConfig } from '../config/common-config.js';
import { reportStartFailures, type ServerUrls } from '../bootstrap/start-failures.js';
import { joinProcess, processLabel } from './process-services.js';

/** Nest's own start-up lines: which module loaded, which route mapped. Detail for `SMSQ_LOG_LEVEL=debug`. */
const FRAMEWORK_CONTEXTS = new Set(['InstanceLoader', 'RoutesResolver', 'RouterExplorer', 'NestFactory', 'NestApplication', 'NestMicroservice', 'ClientProxy']);

const INFO_LEVELS: LogLevel[] = ['log', 'warn', 'error', 'fatal'];
const DEBUG_LEVELS: LogLevel[] = [...INFO_LEVELS, 'debug', 'verbose'];

/**
 * Structured JSON lines in production, readable lines in development; each names its service.
 * The service's first logger is made before it touches any server (`main.ts` hands it to the
 * database preparation): from then until it listens, a server it names that is down at start is
 * told in one line by this logger (`reportStartFailures`).
 */
export function createLogger(service: string, config: Pick<CommonConfig, 'logFormat' | 'logLevel'> & ServerUrls): LoggerService {
  joinProcess(service);
  const logLevels = config.logLevel === 'debug' ? DEBUG_LEVELS : INFO_LEVELS;
  const logger = config.logFormat === 'json' ? new ServiceJsonLogger({ json: true, colors: false, logLevels }) : new ServiceLogger({ prefix: service, colors: process.stdout.isTTY, logLevels });
  reportStartFailures(logger, config);
  return logger;
}

/** A line from one of the framework's start-up classes is logged at debug level: a person starting smsq needs what is ready, where, and what went wrong. */
function isFrameworkDetail(optionalParams: unknown[]): boolean {
  const context = optionalParams.at(-1);
  return typeof context === 'string' && FRAMEWORK_CONTEXTS.has(context);
}

class ServiceLogger extends ConsoleLogger {
  override log(message: unknown, ...optionalParams: unknown[]): void {
    if (isFrameworkDetail(optionalParams)) return this.debug(message, ...optionalParams);
    super.log(message, ...optionalParams);
  }
}

/**
 * Nest's JSON lines with a `service` field, which they otherwise lack. Services sharing a process
 * share Nest's static logger too (each app replaces it), so a line names the process's services
 * (`billing+dispatch+…`); its `context` names the class, or the service, that wrote it.
 */
class ServiceJsonLogger extends ServiceLogger {

  protected override getJsonLogObject(...[message, options]: Parameters<ConsoleLogger['getJsonLogObject']>): ReturnType<ConsoleLogger['getJsonLogObject']> {
    return { service: processLabel(), ...super.getJsonLogObject(message, options) };
  }
}
