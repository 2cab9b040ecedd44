import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cacheControlOf, contentTypeOf, looksLikeFile, staticPathOf } from './static-files.js';

describe(staticPathOf.name, () => {
  const root = resolve('/srv/web/dist');

  it.each([
    ['/', root],
    ['/index.html', join(root, 'index.html')],
    ['/assets/index-B7xQ2kLm.js', join(root, 'assets', 'index-B7xQ2kLm.js')],
    ['/tasks//42', join(root, 'tasks', '42')],
    ['/file%20name.png', join(root, 'file name.png')],
  ])('resolves %s inside the root', (path, expected) => {
    expect(staticPathOf(root, path)).toBe(expected);
  });

  it.each(['/../etc/passwd', '/..%2fetc%2fpasswd', '/%2e%2e/etc/passwd', '/assets/../../x', '/a/./b', '/.env', '/..%5c..%5cwin.ini', '/x%00.js', '/%E0%A4%A', '/a\\..\\b'])(
    'refuses %s',
    (path) => {
      expect(staticPathOf(root, path)).toBeUndefined();
    },
  );
});

describe(contentTypeOf.name, () => {
  it.each([
    ['index.html', 'text/html; charset=utf-8'],
    ['app.js', 'text/javascript; charset=utf-8'],
    ['app.css', 'text/css; charset=utf-8'],
    ['logo.SVG', 'image/svg+xml'],
    ['logo.png', 'image/png'],
    ['manifest.json', 'application/json; charset=utf-8'],
    ['favicon.ico', 'image/x-icon'],
    ['font.woff2', 'font/woff2'],
    ['blob.bin', 'application/octet-stream'],
  ])('gives %s the type %s', (file, type) => {
    expect(contentTypeOf(file)).toBe(type);
  });
});

describe(cacheControlOf.name, () => {
  it('caches content-hashed bundle files for a year and revalidates everything else', () => {
    expect(cacheControlOf('assets/index-B7xQ2kLm.js')).toBe('public, max-age=31536000, immutable');
    expect(cacheControlOf('assets/inter-latin-400-normal.Dx4kXJAl.woff2')).toBe('public, max-age=31536000, immutable');
    expect(cacheControlOf('index.html')).toBe('no-cache');
    expect(cacheControlOf('assets/logo.svg')).toBe('no-cache');
    expect(cacheControlOf('favicon-B7xQ2kLm.ico')).toBe('no-cache');
  });
});

describe(looksLikeFile.name, () => {
  it('tells files from the app’s routes by the extension of the last segment', () => {
    expect(looksLikeFile('/assets/app.js')).toBe(true);
    expect(looksLikeFile('/tasks/42')).toBe(false);
    expect(looksLikeFile('/v1.2/tasks')).toBe(false);
  });
});
