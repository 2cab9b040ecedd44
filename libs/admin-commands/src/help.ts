import { NotFoundError } from '@smsq/contracts';
import { COMMANDS, type AdminCommand } from './commands.js';
import type { FlagSpec } from './flags.js';

const WIDTH = 100;
/** The widest flag whose meaning starts on its own line. */
const FLAG_COLUMN = 30;

/** `client create --name NAME [--plan PLAN]`: a command with its flags, the optional ones in brackets. */
export function commandUsage(name: string, command: AdminCommand): string {
  return [name, ...command.flags.map(flagUsage)].join(' ');
}

export function flagUsage(flag: FlagSpec): string {
  const written = `--${flag.name} ${flag.value}`;
  return flag.required ? written : `[${written}]`;
}

/**
 * The admin command line's help for a terminal: every command with its usage and summary, or, for
 * `help <noun>` or `help <noun> <verb>`, those commands with each flag explained.
 */
export function adminHelp(topic: readonly string[] = []): string {
  const asked = topic.join(' ').trim();
  const chosen = Object.entries(COMMANDS).filter(([name]) => asked === '' || name === asked || name.startsWith(`${asked} `));
  if (chosen.length === 0) throw new NotFoundError(`command "${asked}" (known: ${Object.keys(COMMANDS).join(', ')})`);
  const lines = [
    'usage: npm run --silent admin -- <noun> <verb> [--flag value]…',
    'Each command prints one JSON object; the services must be running.',
    'A flag in [brackets] may be left out.',
    '',
  ];
  for (const [name, command] of chosen) {
    lines.push(...wrap([name, ...command.flags.map(flagUsage)], '', '    '), ...wrap(command.summary.split(' '), '    ', '    '));
    if (asked !== '') lines.push(...flagLines(command.flags));
    lines.push('');
  }
  if (asked === '') lines.push('npm run admin -- help <noun> [<verb>] explains each flag of those commands.');
  return `${lines.join('\n').trimEnd()}\n`;
}

function flagLines(flags: readonly FlagSpec[]): string[] {
  const written = flags.map((flag) => `--${flag.name} ${flag.value}`);
  const column = Math.min(Math.max(...written.map((text) => text.length)), FLAG_COLUMN) + 2;
  const indent = ' '.repeat(6 + column);
  return flags.flatMap((flag, index) => {
    const text = `${flag.required ? 'required' : 'optional'}: ${flag.meaning}`.split(' ');
    const usage = `      ${written[index]!}`;
    // A flag wider than the column has its meaning on the lines below it.
    return usage.length > indent.length - 2 ? [usage, ...wrap(text, indent, indent)] : wrap(text, usage.padEnd(indent.length), indent);
  });
}

/** `words` in lines of at most WIDTH characters where the words allow, the first after `first`, the rest after `rest`. */
function wrap(words: readonly string[], first: string, rest: string): string[] {
  const lines: string[] = [];
  let line = first;
  let empty = true;
  for (const word of words) {
    if (!empty && line.length + 1 + word.length > WIDTH) {
      lines.push(line);
      line = rest;
      empty = true;
    }
    line += empty ? word : ` ${word}`;
    empty = false;
  }
  lines.push(line);
  return lines;
}
