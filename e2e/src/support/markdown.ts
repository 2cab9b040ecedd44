import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, extname, join, relative, resolve, sep } from 'node:path';

/** A fenced code block: its info string's words (`["sh", "tested"]`), its text, and the line its opening fence is on (1-based). */
export interface FencedBlock {
  info: string[];
  text: string;
  line: number;
}

/** A link's target as written (`guide/webhooks.md#check-the-signature`), and its line (1-based). */
export interface MarkdownLink {
  target: string;
  line: number;
}

/** Folders whose Markdown is not the repository's own. */
const NOT_OURS = ['node_modules', 'dist', 'test-results', '.nx', 'coverage'];

/**
 * The repository's Markdown files, relative to `root`: those git tracks and those it would (new
 * files not ignored), that are still there, outside dependencies and build output.
 */
export function markdownFiles(root: string): string[] {
  const listed = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard', '--', '*.md'], { cwd: root, encoding: 'utf8' });
  const files = new Set(listed.split('\0').filter((file) => file !== ''));
  return [...files].filter((file) => !file.split('/').some((part) => NOT_OURS.includes(part)) && existsSync(join(root, file))).sort();
}

/** Lines of Markdown with what is not prose marked: `code[i]` is true for a line of a fenced block (fences included) or of an HTML comment. */
function proseLines(text: string): { lines: string[]; code: boolean[] } {
  const lines = text.split(/\r?\n/);
  const code = lines.map(() => false);
  let fence: { char: string; length: number } | null = null;
  let comment = false;
  lines.forEach((line, index) => {
    if (fence) {
      code[index] = true;
      const closing = /^\s*(`{3,}|~{3,})\s*$/.exec(line);
      if (closing && closing[1]![0] === fence.char && closing[1]!.length >= fence.length) fence = null;
      return;
    }
    if (comment) {
      code[index] = true;
      if (line.includes('-->')) comment = false;
      return;
    }
    const opening = /^\s*(`{3,}|~{3,})/.exec(line);
    if (opening) {
      fence = { char: opening[1]![0]!, length: opening[1]!.length };
      code[index] = true;
      return;
    }
    if (/^\s*<!--/.test(line) && !line.includes('-->')) {
      comment = true;
      code[index] = true;
    }
  });
  return { lines, code };
}

/** Every fenced block, in order. */
export function fencedBlocks(text: string): FencedBlock[] {
  const lines = text.split(/\r?\n/);
  const blocks: FencedBlock[] = [];
  for (let index = 0; index < lines.length; index++) {
    const opening = /^(\s*)(`{3,}|~{3,})\s*(.*)$/.exec(lines[index]!);
    if (!opening) continue;
    const [, indent, marker, info] = opening as unknown as [string, string, string, string];
    const body: string[] = [];
    let end = index + 1;
    for (; end < lines.length; end++) {
      const closing = /^\s*(`{3,}|~{3,})\s*$/.exec(lines[end]!);
      if (closing && closing[1]![0] === marker[0] && closing[1]!.length >= marker.length) break;
      // A block inside a list item is indented with it: its text is not.
      body.push(lines[end]!.startsWith(indent) ? lines[end]!.slice(indent.length) : lines[end]!.trimStart());
    }
    blocks.push({ info: info.trim().split(/\s+/).filter((word) => word !== ''), text: body.join('\n'), line: index + 1 });
    index = end;
  }
  return blocks;
}

/** A line without its code spans, so that `[x](y)` in code is not taken for a link. */
function withoutCodeSpans(line: string): string {
  return line.replace(/(`+)[\s\S]*?\1/g, (span) => ' '.repeat(span.length));
}

/** Every link of the prose: inline links and images, reference definitions, and HTML `href`/`src`. */
export function markdownLinks(text: string): MarkdownLink[] {
  const { lines, code } = proseLines(text);
  const links: MarkdownLink[] = [];
  lines.forEach((raw, index) => {
    if (code[index]) return;
    const line = withoutCodeSpans(raw);
    const found = (target: string) => links.push({ target, line: index + 1 });
    // `](target)` or `](target "title")`, `](<target with spaces>)`: the text before it may hold brackets of its own.
    for (const match of line.matchAll(/\]\(\s*(<[^>\n]*>|[^\s()<>]*(?:\([^\s()]*\)[^\s()<>]*)*)(?:\s+(?:"[^"]*"|'[^']*'|\([^)]*\)))?\s*\)/g)) {
      found(match[1]!.replace(/^<|>$/g, ''));
    }
    const definition = /^ {0,3}\[[^\]]+\]:\s*(<[^>]*>|\S+)/.exec(line);
    if (definition) found(definition[1]!.replace(/^<|>$/g, ''));
    for (const match of line.matchAll(/<(?:a|img)\s[^>]*?\b(?:href|src)\s*=\s*["']([^"']*)["']/gi)) found(match[1]!);
  });
  return links;
}

/** A heading's text as GitHub renders it: links and images as their text, code without its backticks, no emphasis or HTML. */
function renderedText(heading: string): string {
  const parts = heading.split(/(`+[^`]*`+)/);
  return parts
    .map((part, index) => {
      if (index % 2 === 1) return part.replace(/^`+|`+$/g, '');
      return part
        .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
        .replace(/!?\[([^\]]*)\]\[[^\]]*\]/g, '$1')
        .replace(/<[^>]+>/g, '')
        .replace(/(^|[^\p{L}\p{N}])_+(?=\S)/gu, '$1')
        .replace(/(?<=\S)_+(?=$|[^\p{L}\p{N}])/gu, '');
    })
    .join('');
}

/** GitHub's anchor for a heading: lower case, punctuation dropped but for hyphens and underscores, each space a hyphen. */
export function githubSlug(heading: string): string {
  return renderedText(heading)
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc}\- ]/gu, '')
    .replace(/ /g, '-');
}

/** Every anchor a link into this Markdown may name: its headings' slugs (a repeated one gets -1, -2…) and its `<a id>` and `<a name>`. */
export function markdownAnchors(text: string): Set<string> {
  const { lines, code } = proseLines(text);
  const anchors = new Set<string>();
  // As github-slugger counts: a slug taken already gets the next free -1, -2… of its own count.
  const occurrences = new Map<string, number>();
  const addHeading = (heading: string) => {
    const original = githubSlug(heading);
    let slug = original;
    while (occurrences.has(slug)) {
      const count = occurrences.get(original)! + 1;
      occurrences.set(original, count);
      slug = `${original}-${count}`;
    }
    occurrences.set(slug, 0);
    anchors.add(slug);
  };
  lines.forEach((line, index) => {
    if (code[index]) return;
    const atx = /^ {0,3}#{1,6}(?:\s+(.*?))?\s*$/.exec(line);
    if (atx) return addHeading((atx[1] ?? '').replace(/\s+#+$/, ''));
    const previous = lines[index - 1];
    const isHeadingText = previous !== undefined && !code[index - 1] && previous.trim() !== '' && !/^\s*([-*+>|#]|\d+[.)])/.test(previous);
    if (isHeadingText && /^ {0,3}(=+|-+)\s*$/.test(line)) addHeading(previous.trim());
    for (const match of withoutCodeSpans(line).matchAll(/<a\s[^>]*?\b(?:id|name)\s*=\s*["']([^"']+)["']/gi)) anchors.add(match[1]!);
  });
  return anchors;
}

/**
 * What is wrong with each relative link of `file` (relative to `root`): a file that is not there,
 * or an anchor no heading of the target makes. External links are not followed. Each problem is
 * `file:line → target (why)`.
 */
export function brokenLinks(root: string, file: string, anchorsOf: (path: string) => Set<string>): string[] {
  const text = readFileSync(join(root, file), 'utf8');
  const problems: string[] = [];
  for (const { target, line } of markdownLinks(text)) {
    const why = linkProblem(root, file, target, anchorsOf);
    if (why) problems.push(`${file}:${line} → ${target} (${why})`);
  }
  return problems;
}

function linkProblem(root: string, file: string, target: string, anchorsOf: (path: string) => Set<string>): string | null {
  if (target === '') return 'an empty link';
  if (/^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith('//')) return null;
  const hashAt = target.indexOf('#');
  const pathPart = (hashAt === -1 ? target : target.slice(0, hashAt)).replace(/\?.*$/, '');
  const anchor = hashAt === -1 ? null : target.slice(hashAt + 1);
  let path: string;
  try {
    path = decodeURIComponent(pathPart);
  } catch {
    return 'not a valid URL';
  }
  const resolved = path === '' ? join(root, file) : path.startsWith('/') ? join(root, path) : resolve(root, dirname(file), path);
  const inRepository = relative(root, resolved);
  if (inRepository.startsWith(`..${sep}`) || inRepository === '..') return 'outside the repository';
  if (!existsSync(resolved)) return 'no such file';
  if (anchor === null || anchor === '') return null;
  if (statSync(resolved).isDirectory()) return 'an anchor on a folder';
  if (extname(resolved).toLowerCase() !== '.md') return /^L\d+(-L\d+)?$/.test(anchor) ? null : 'an anchor into a file that is not Markdown';
  let decoded: string;
  try {
    decoded = decodeURIComponent(anchor);
  } catch {
    return 'not a valid anchor';
  }
  const anchors = anchorsOf(inRepository.split(sep).join('/'));
  return anchors.has(decoded) || anchors.has(decoded.toLowerCase()) ? null : `no heading or <a id> makes #${decoded}`;
}
