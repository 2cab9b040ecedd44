import { createReadStream } from 'node:fs';
import { realpath, stat } from 'node:fs/promises';
import { join, relative } from 'node:path';
import type { ErrorBody } from '@smsq/contracts';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { isApiPath } from '../http/security-headers.js';
import { cacheControlOf, contentTypeOf, isInside, looksLikeFile, staticPathOf } from './static-files.js';

const NOT_BUILT_PAGE = `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>smsq dashboard</title></head>
<body style="font-family: sans-serif; max-width: 40rem; margin: 3rem auto">
<h1>The dashboard's front end is not built</h1>
<p>Build it with <code>npx nx run dashboard-web:build</code>, then reload this page. The API under <code>/api</code> works already.</p>
</body>
</html>
`;

/**
 * Serves the built front end for every GET outside /api: the file asked for, or index.html for
 * the app's own routes. Unknown API paths stay JSON 404s.
 */
export function serveWebApp(fastify: FastifyInstance, webDir: string): void {
  fastify.get('/*', (request, reply) => serve(webDir, request, reply));
}

async function serve(webDir: string, request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
  const urlPath = request.url.split('?', 1)[0] ?? '/';
  if (isApiPath(urlPath)) return notFound(reply, 'no such API route');
  const root = await realpath(webDir).catch(() => undefined);
  if (!root) return reply.type('text/html; charset=utf-8').header('cache-control', 'no-store').send(NOT_BUILT_PAGE);
  const wanted = staticPathOf(root, urlPath);
  if (!wanted) return notFound(reply, 'no such file');
  const file = (await existingFileIn(root, wanted)) ?? (looksLikeFile(urlPath) ? undefined : await existingFileIn(root, join(root, 'index.html')));
  if (!file) return notFound(reply, 'no such file');
  return reply
    .type(contentTypeOf(file.path))
    .header('content-length', String(file.size))
    .header('cache-control', cacheControlOf(relative(root, file.path)))
    .send(createReadStream(file.path));
}

/** The regular file at `path`, following links only as long as they stay inside the root. */
async function existingFileIn(root: string, path: string | undefined): Promise<{ path: string; size: number } | undefined> {
  if (!path) return undefined;
  try {
    const real = await realpath(path);
    if (!isInside(root, real)) return undefined;
    const info = await stat(real);
    return info.isFile() ? { path: real, size: info.size } : undefined;
  } catch {
    return undefined;
  }
}

function notFound(reply: FastifyReply, detail: string): FastifyReply {
  const body: ErrorBody = { error: 'not_found', detail };
  return reply.code(404).type('application/json; charset=utf-8').send(body);
}
