import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { brokenLinks, markdownAnchors, markdownFiles } from './support/markdown.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

describe('links in the docs', () => {
  it('lead to a file of the repository and, with an #anchor, to one of its headings', () => {
    const files = markdownFiles(ROOT);
    const anchors = new Map<string, Set<string>>();
    const anchorsOf = (path: string): Set<string> => {
      if (!anchors.has(path)) anchors.set(path, markdownAnchors(readFileSync(join(ROOT, path), 'utf8')));
      return anchors.get(path)!;
    };

    const broken = files.flatMap((file) => brokenLinks(ROOT, file, anchorsOf));

    expect(files).toEqual(expect.arrayContaining(['README.md', 'CHANGELOG.md', 'docs/guide/webhooks.md']));
    expect(broken, `${broken.length} broken link(s) in ${files.length} Markdown files:\n${broken.join('\n')}\n`).toEqual([]);
  });
});
