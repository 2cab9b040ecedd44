import { createReadStream, statSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import type { ErrorBody } from '@smsq/contracts';
import type { FastifyInstance } from 'fastify';

/** Where the dashboard offers the reference worker, so a user pairing a phone need not build it. */
export const WORKER_DOWNLOAD_PATH = '/downloads/smsq-worker.mjs';

/** Whether the worker's build is there to offer (it is built with the worker, not the dashboard). */
export function workerFileExists(file: string): boolean {
  try {
    return statSync(file).isFile();
  } catch {
    return false;
  }
}

/** GET /downloads/smsq-worker.mjs: the built worker as an attachment, or a JSON 404 while it is not built. */
export function serveWorkerDownload(fastify: FastifyInstance, file: string): void {
  fastify.get(WORKER_DOWNLOAD_PATH, async (_request, reply) => {
    const info = await stat(file).catch(() => undefined);
    if (!info?.isFile()) {
      const body: ErrorBody = { error: 'not_found', detail: 'the worker is not built; build it with npx nx run worker:build' };
      return reply.code(404).type('application/json; charset=utf-8').send(body);
    }
    return reply
      .type('text/javascript; charset=utf-8')
      .header('content-disposition', 'attachment; filename="smsq-worker.mjs"')
      .header('content-length', String(info.size))
      .header('cache-control', 'no-cache')
      .send(createReadStream(file));
  });
}
