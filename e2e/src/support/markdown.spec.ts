import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { brokenLinks, fencedBlocks, githubSlug, markdownAnchors, markdownLinks } from './markdown.js';
import { answerProblems, testedCommands } from './tested-docs.js';

const PAGE = [
  '# Webhooks',
  '',
  'See [the events](#the-events), [signatures](guide/webhooks.md#check-the-signature "title") and ![a picture](<shots/a b.png>).',
  '',
  '## The events',
  '',
  '`[not a link](nowhere.md)` and <a id="custom-anchor"></a>',
  '',
  '```sh',
  'echo "[not a link](nowhere.md)"',
  '## not a heading',
  '```',
  '',
  '- a list item with a block:',
  '  ```sh tested',
  '  curl -s http://localhost:3000/smsapi/webhooks',
  '  ```',
  '',
  '  ```json answer',
  '  {"items": []}',
  '  ```',
  '',
  '## The events',
  '',
  'Setext heading',
  '--------------',
  '',
  '[ref]: ../README.md#smsq',
  '<!-- [hidden](nowhere.md)',
  '-->',
].join('\n');

describe('the Markdown the doc tests read', () => {
  it('makes anchors as GitHub does: lower case, punctuation dropped but - and _, spaces as hyphens, repeats numbered', () => {
    expect(githubSlug('Check the signature')).toBe('check-the-signature');
    expect(githubSlug("What a service's /metrics shows")).toBe('what-a-services-metrics-shows');
    expect(githubSlug('3. What a `submit_sm` becomes')).toBe('3-what-a-submit_sm-becomes');
    expect(githubSlug('Per phone: limits, pace, recipients, SIMs')).toBe('per-phone-limits-pace-recipients-sims');
    expect(githubSlug('[0.1.0] - 2026-11-29')).toBe('010---2026-11-29');
    expect(githubSlug('A [linked](x.md) *and* _emphasised_ SMSQ_WEBHOOK_ALLOW_PRIVATE')).toBe('a-linked-and-emphasised-smsq_webhook_allow_private');
    expect([...markdownAnchors(PAGE)].sort()).toEqual(['custom-anchor', 'setext-heading', 'the-events', 'the-events-1', 'webhooks']);
  });

  it('finds the links of the prose, not those in code, fences or comments', () => {
    expect(markdownLinks(PAGE)).toEqual([
      { target: '#the-events', line: 3 },
      { target: 'guide/webhooks.md#check-the-signature', line: 3 },
      { target: 'shots/a b.png', line: 3 },
      { target: '../README.md#smsq', line: 28 },
    ]);
  });

  it('reads fenced blocks with their info strings and lines, inside list items too', () => {
    expect(fencedBlocks(PAGE).map(({ info, line, text }) => ({ info, line, text }))).toEqual([
      { info: ['sh'], line: 9, text: 'echo "[not a link](nowhere.md)"\n## not a heading' },
      { info: ['sh', 'tested'], line: 15, text: 'curl -s http://localhost:3000/smsapi/webhooks' },
      { info: ['json', 'answer'], line: 19, text: '{"items": []}' },
    ]);
    expect(testedCommands(PAGE)).toEqual({ commands: [{ line: 15, script: 'curl -s http://localhost:3000/smsapi/webhooks', answer: { items: [] } }], problems: [] });
    expect(testedCommands('```sh tested\ncurl x\n```\n\n```json\n{}\n```\n```sh tested\ncurl y\n```\n```json answer\n{"ok": tru}\n```').problems).toEqual([
      '1: a `sh tested` block is not followed by a `json answer` block',
      expect.stringMatching(/^11: the `json answer` is not JSON: /),
    ]);
  });

  it('holds an answer to the documented one: keys, list lengths, booleans and words, but not ids, times, keys or numbers', () => {
    const documented = { ok: true, id: 1, status: 'pending', scheduled_at: '2026-11-22 03:04:05', secret: 'whsec_…', created_at: '2026-11-29T10:15:00.000Z', events: ['task.sent'], error: null };
    const same = { ok: true, id: 917, status: 'pending', scheduled_at: '2026-11-30 00:00:01', secret: 'whsec_Zm9vYmFy', created_at: '2026-11-30T00:00:01.000Z', events: ['task.sent'], error: 'anything' };

    expect(answerProblems(documented, same)).toEqual([]);
    expect(answerProblems(documented, { ...same, ok: false, status: 'sent', events: ['task.sent', 'task.failed'], extra: 1 })).toEqual([
      'extra: in the answer (1), not in the docs',
      'ok: the docs show true, the answer has false',
      'status: the docs show "pending", the answer has "sent"',
      'events: the docs show 1 item(s), the answer has 2',
    ]);
    expect(answerProblems({ items: [{ url: 'https://example.com/a' }] }, { items: [{}] })).toEqual(['items[0].url: in the docs, not in the answer']);
    expect(answerProblems({ items: [] }, { error: 'not_found' })).toEqual(['items: in the docs, not in the answer', 'error: in the answer ("not_found"), not in the docs']);
  });

  describe('links', () => {
    let root: string;
    beforeAll(() => {
      root = mkdtempSync(join(tmpdir(), 'smsq-doc-links-'));
      mkdirSync(join(root, 'docs', 'guide'), { recursive: true });
      writeFileSync(join(root, 'README.md'), '# smsq\n\n[guide](docs/guide/webhooks.md#check-the-signature) [gone](docs/old.md) [bad](docs/guide/webhooks.md#verify) [code](docs/x.ts#L3) [site](https://example.com/nope)\n');
      writeFileSync(join(root, 'docs', 'guide', 'webhooks.md'), '# Webhooks\n\n## Check the signature\n\n[up](../../README.md#smsq) [folder](../guide/) [outside](../../../elsewhere.md) [self](#webhooks)\n');
      writeFileSync(join(root, 'docs', 'x.ts'), 'export {};\n');
    });
    afterAll(() => rmSync(root, { recursive: true, force: true }));

    it('names every link that leads nowhere, with its file, line and why', () => {
      const anchorsOf = (path: string) => markdownAnchors(path === 'README.md' ? '# smsq' : '# Webhooks\n## Check the signature');

      expect([...brokenLinks(root, 'README.md', anchorsOf), ...brokenLinks(root, 'docs/guide/webhooks.md', anchorsOf)]).toEqual([
        'README.md:3 → docs/old.md (no such file)',
        'README.md:3 → docs/guide/webhooks.md#verify (no heading or <a id> makes #verify)',
        'docs/guide/webhooks.md:5 → ../../../elsewhere.md (outside the repository)',
      ]);
    });
  });
});
