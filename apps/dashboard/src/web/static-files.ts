import { extname, resolve, sep } from 'node:path';

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.json': 'application/json; charset=utf-8',
  '.webmanifest': 'application/manifest+json; charset=utf-8',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
};

export function contentTypeOf(path: string): string {
  return CONTENT_TYPES[extname(path).toLowerCase()] ?? 'application/octet-stream';
}

/**
 * The file a URL path names inside `root`, or undefined when it could name anything outside it:
 * undecodable, NUL, backslashes, `.`/`..` or hidden segments (encoded or not) are refused
 * outright rather than normalised, and the resolved path must still lie under the root.
 */
export function staticPathOf(root: string, urlPath: string): string | undefined {
  let decoded: string;
  try {
    decoded = decodeURIComponent(urlPath);
  } catch {
    return undefined;
  }
  if (decoded.includes('\0') || decoded.includes('\\')) return undefined;
  const segments = decoded.split('/').filter((segment) => segment !== '');
  if (segments.some((segment) => segment.startsWith('.'))) return undefined;
  const base = resolve(root);
  const full = resolve(base, ...segments);
  return full === base || full.startsWith(base + sep) ? full : undefined;
}

/** Whether `path` lies inside `root` (both already resolved, e.g. by realpath). */
export function isInside(root: string, path: string): boolean {
  return path === root || path.startsWith(root.endsWith(sep) ? root : root + sep);
}

/** A path with an extension names a file; one without is a route of the single-page app. */
export function looksLikeFile(urlPath: string): boolean {
  const last = urlPath.split('/').pop() ?? '';
  return last.includes('.');
}

/** Vite's content-hashed bundle files never change under their name; everything else is revalidated. */
export function cacheControlOf(relativePath: string): string {
  const hashed = /^assets\/.+[-.][A-Za-z0-9_-]{8,}\.[a-z0-9]+$/i.test(relativePath.split(sep).join('/'));
  return hashed ? 'public, max-age=31536000, immutable' : 'no-cache';
}
