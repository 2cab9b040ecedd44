import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { readSmsqVersion, SMSQ_VERSION } from './version.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const rootPackage = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { name: string; version: string };
const changelog = readFileSync(join(ROOT, 'CHANGELOG.md'), 'utf8');

/** `## [x.y.z] - YYYY-MM-DD`, Keep a Changelog's heading of a release. */
const RELEASE_HEADING = /^## \[(\d+)\.(\d+)\.(\d+)\] - (\d{4}-\d{2}-\d{2})$/;
/** The kinds of change Keep a Changelog 1.1.0 groups a release's entries under. */
const CHANGE_KINDS = ['Added', 'Changed', 'Deprecated', 'Removed', 'Fixed', 'Security'];

describe(readSmsqVersion.name, () => {
  const folders: string[] = [];
  afterEach(() => {
    for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
  });

  it('is the root package.json version, a semantic version', () => {
    expect(SMSQ_VERSION).toBe(rootPackage.version);
    expect(SMSQ_VERSION).toMatch(/^\d+\.\d+\.\d+$/);
  });

  it("finds smsq's package.json above a build's folder, past another package's", () => {
    const root = mkdtempSync(join(tmpdir(), 'smsq-version-'));
    folders.push(root);
    writeFileSync(join(root, 'package.json'), JSON.stringify({ name: 'smsq', version: '7.8.9' }));
    const bundle = join(root, 'apps', 'billing', 'dist');
    mkdirSync(bundle, { recursive: true });
    writeFileSync(join(root, 'apps', 'billing', 'package.json'), JSON.stringify({ name: '@smsq/billing', version: '0.0.0' }));

    expect(readSmsqVersion(bundle)).toBe('7.8.9');
  });

  it('stops the process with a message naming the folder when there is no smsq package.json above it', () => {
    const outside = mkdtempSync(join(tmpdir(), 'smsq-version-'));
    folders.push(outside);

    expect(() => readSmsqVersion(outside)).toThrow(`is not in ${outside} or any folder above it`);
  });
});

describe('CHANGELOG.md', () => {
  const headings = changelog.split('\n').filter((line) => line.startsWith('## '));
  const releases = headings.filter((line) => line !== '## [Unreleased]');

  it('follows Keep a Changelog: a title, an Unreleased section first, then releases as `## [x.y.z] - YYYY-MM-DD`, newest first', () => {
    expect(changelog.startsWith('# Changelog\n')).toBe(true);
    expect(changelog).toContain('https://keepachangelog.com/en/1.1.0/');
    expect(headings[0]).toBe('## [Unreleased]');
    expect(releases.length).toBeGreaterThan(0);
    expect(releases.filter((heading) => !RELEASE_HEADING.test(heading))).toEqual([]);

    const parsed = releases.map((heading) => RELEASE_HEADING.exec(heading)!.slice(1));
    for (const [, , , date] of parsed) expect(new Date(`${date}T00:00:00Z`).toISOString().slice(0, 10)).toBe(date);
    const order = (release: string[]) => release.slice(0, 3).map(Number);
    for (let index = 1; index < parsed.length; index++) {
      const [newer, older] = [order(parsed[index - 1]!), order(parsed[index]!)];
      expect(newer[0]! - older[0]! || newer[1]! - older[1]! || newer[2]! - older[2]!, `${releases[index - 1]} comes before ${releases[index]}`).toBeGreaterThan(0);
      expect(parsed[index - 1]![3]! >= parsed[index]![3]!, `${releases[index - 1]} is not older than ${releases[index]}`).toBe(true);
    }
  });

  it("groups a release's entries under Keep a Changelog's kinds of change only", () => {
    const groups = changelog.split('\n').filter((line) => line.startsWith('### '));
    expect(groups.filter((line) => !CHANGE_KINDS.includes(line.slice(4)))).toEqual([]);
  });

  it("has package.json's version as its newest release", () => {
    expect(RELEASE_HEADING.exec(releases[0] ?? '')?.slice(1, 4).join('.')).toBe(rootPackage.version);
  });
});
