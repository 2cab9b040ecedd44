import { fencedBlocks } from './markdown.js';

/**
 * A command the docs show with its answer: a fenced block with the info string `sh tested`, and
 * the `json answer` block that follows it. The test runs the command against a stack and holds
 * its output against the answer (`answerProblems`).
 */
export interface TestedCommand {
  /** The `sh tested` block's opening line (1-based). */
  line: number;
  script: string;
  answer: unknown;
}

/** The page's tested commands in order, and what keeps one from being run (no answer after it, an answer that is not JSON), as `line: why`. */
export function testedCommands(markdown: string): { commands: TestedCommand[]; problems: string[] } {
  const blocks = fencedBlocks(markdown);
  const commands: TestedCommand[] = [];
  const problems: string[] = [];
  blocks.forEach((block, index) => {
    if (block.info[0] !== 'sh' || !block.info.includes('tested')) return;
    const next = blocks[index + 1];
    if (!next || next.info[0] !== 'json' || !next.info.includes('answer')) {
      problems.push(`${block.line}: a \`sh tested\` block is not followed by a \`json answer\` block`);
      return;
    }
    try {
      commands.push({ line: block.line, script: block.text, answer: JSON.parse(next.text) });
    } catch (error) {
      problems.push(`${next.line}: the \`json answer\` is not JSON: ${(error as Error).message}`);
    }
  });
  return { commands, problems };
}

/** A field whose value differs from one run to the next: an id, a time, a key, a secret, a cursor. */
const CHANGING_NAME = /(^|_)(id|at|until|secret|password|token|key|cursor)$|[a-z](Id|At|Until|Secret|Password|Token|Key|Cursor)$/;
const CHANGING_VALUES = [
  /^\d{4}-\d{2}-\d{2}([ T]\d{2}:\d{2}(:\d{2}(\.\d+)?)?)?(Z|[+-]\d{2}:?\d{2})?$/, // a date or a time
  /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i, // a UUID
  /^(smsq_key_|smsq_wkr_|whsec_)/, // a key, a worker token, a webhook secret
  /…/, // shortened in the docs
  /^\d+$/, // an id as digits
  /^(?=.*\d)[A-Za-z0-9_\-+/=]{16,}$/, // a token
];

function changes(name: string, value: string): boolean {
  return CHANGING_NAME.test(name) || CHANGING_VALUES.some((pattern) => pattern.test(value));
}

const kind = (value: unknown): string => (value === null ? 'null' : Array.isArray(value) ? 'a list' : typeof value === 'object' ? 'an object' : typeof value);

/**
 * Where `actual` is not what the docs show as `documented`: the same keys, recursively, lists of
 * the same length, and the same value where the docs show a boolean or a string that is not an id,
 * a time or a key (`ok`, `status`, `error`…). Numbers and nulls are not compared. Each problem
 * names the field's path (`items[0].status`).
 */
export function answerProblems(documented: unknown, actual: unknown, path = '', name = ''): string[] {
  const at = path || 'the answer';
  if (Array.isArray(documented)) {
    if (!Array.isArray(actual)) return [`${at}: the docs show a list, the answer has ${kind(actual)}`];
    if (actual.length !== documented.length) return [`${at}: the docs show ${documented.length} item(s), the answer has ${actual.length}`];
    return documented.flatMap((item, index) => answerProblems(item, actual[index], `${path}[${index}]`, name));
  }
  if (documented !== null && typeof documented === 'object') {
    if (actual === null || typeof actual !== 'object' || Array.isArray(actual)) return [`${at}: the docs show an object, the answer has ${kind(actual)}`];
    const shown = Object.keys(documented);
    const answered = Object.keys(actual);
    return [
      ...shown.filter((key) => !answered.includes(key)).map((key) => `${path ? `${path}.` : ''}${key}: in the docs, not in the answer`),
      ...answered.filter((key) => !shown.includes(key)).map((key) => `${path ? `${path}.` : ''}${key}: in the answer (${JSON.stringify((actual as Record<string, unknown>)[key])}), not in the docs`),
      ...shown.filter((key) => answered.includes(key)).flatMap((key) => answerProblems((documented as Record<string, unknown>)[key], (actual as Record<string, unknown>)[key], path ? `${path}.${key}` : key, key)),
    ];
  }
  const compared = typeof documented === 'boolean' || (typeof documented === 'string' && !changes(name, documented));
  return compared && documented !== actual ? [`${at}: the docs show ${JSON.stringify(documented)}, the answer has ${JSON.stringify(actual)}`] : [];
}
