import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { ClientProxyFactory } from '@nestjs/microservices';
import { runAdminCommand } from '@smsq/admin-commands';
import { DomainError, type ServiceName } from '@smsq/contracts';
import { loadConfigOrExit, readCommonConfig, rmqClientOptions, ServiceClient } from '@smsq/platform';

// stdout carries exactly one JSON object; the framework's own logging stays out of it.
Logger.overrideLogger(false);
const config = loadConfigOrExit(readCommonConfig);
const connect = (service: ServiceName) => new ServiceClient(service, ClientProxyFactory.create(rmqClientOptions(config, service)), config.rpcTimeoutMs);
const services = { gateway: connect('gateway'), billing: connect('billing'), dispatch: connect('dispatch'), dashboard: connect('dashboard') };

try {
  const output = await runAdminCommand(process.argv.slice(2), services);
  process.stdout.write(`${JSON.stringify(output)}\n`);
} catch (error) {
  const body = error instanceof DomainError ? error.toBody() : { error: 'internal_error', detail: String(error) };
  process.stdout.write(`${JSON.stringify(body)}\n`);
  process.exitCode = 1;
} finally {
  await Promise.allSettled(Object.values(services).map((client) => client.close()));
}
