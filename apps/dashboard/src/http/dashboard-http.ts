import type { FastifyAdapter, NestFastifyApplication } from '@nestjs/platform-fastify';
import { CREATE_TASKS_BODY_LIMIT_BYTES } from '@smsq/contracts';
import { createHttpAdapter, raiseBodyLimit, readBodiesAsJson } from '@smsq/platform';
import type { DashboardConfig } from '../config/dashboard-config.js';
import { serveWebApp } from '../web/web-app.js';
import { serveWorkerDownload } from '../web/worker-download.js';
import { checkCsrfTokens } from './csrf-check.js';
import { BODY_LIMIT_BYTES } from './json-body.js';
import { sendSecurityHeaders } from './security-headers.js';

/** The dashboard's HTTP server: security headers, the CSRF check and JSON bodies before any route. */
export function dashboardFastify(config: DashboardConfig): FastifyAdapter {
  const adapter = createHttpAdapter({ bodyLimit: BODY_LIMIT_BYTES, trustProxy: config.trustProxy });
  const fastify = adapter.getInstance();
  sendSecurityHeaders(fastify);
  checkCsrfTokens(fastify, { secret: config.secret, namespace: config.namespace });
  readBodiesAsJson(fastify, { bodyLimit: BODY_LIMIT_BYTES, notJson: 'refuse' });
  // Send to many: a list of messages, as large as create-tasks takes.
  raiseBodyLimit(fastify, ['/api/send', '/api/send/check'], CREATE_TASKS_BODY_LIMIT_BYTES);
  return adapter;
}

/** After Nest's own routes: the worker's download, and the built front end for every other GET. */
export function configureDashboardHttp(config: DashboardConfig): (app: NestFastifyApplication) => void {
  return (app) => {
    const fastify = app.getHttpAdapter().getInstance();
    serveWorkerDownload(fastify, config.workerFile);
    serveWebApp(fastify, config.webDir);
  };
}
