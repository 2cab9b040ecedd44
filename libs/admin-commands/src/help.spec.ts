import { describe, expect, it } from 'vitest';
import { COMMANDS } from './commands.js';
import { adminHelp, commandUsage } from './help.js';

describe(adminHelp.name, () => {
  it('lists every command with its usage and summary', () => {
    const sut = adminHelp();

    for (const [name, command] of Object.entries(COMMANDS)) {
      expect(sut).toContain(commandUsage(name, command).split(' ').slice(0, 4).join(' '));
      expect(sut).toContain(command.summary.split(' ').slice(0, 3).join(' '));
    }
    expect(sut).toContain('phone set --phone ID [--number E.164|none] [--daily N|none]');
  });

  it('explains each flag of one command', () => {
    const sut = adminHelp(['client', 'create']);

    expect(sut).toContain('client create --name NAME [--plan PLAN] [--timezone TZ]');
    expect(sut).toMatch(/--name NAME\s+required: the client's name/);
    expect(sut).toMatch(/--timezone TZ\s+optional: its IANA time zone/);
    expect(sut).not.toContain('client show');
  });

  it('explains the commands of one noun', () => {
    const sut = adminHelp(['webhook']);

    expect(sut.match(/^webhook \S+/gm)).toEqual(['webhook create', 'webhook list', 'webhook enable', 'webhook delete']);
  });

  it('keeps lines short enough for a terminal where the words allow', () => {
    for (const line of adminHelp(['phone', 'set']).split('\n')) expect(line.length).toBeLessThanOrEqual(100);
  });

  it('answers not_found for a command there is not', () => {
    expect(() => adminHelp(['phone', 'delete'])).toThrow(expect.objectContaining({ code: 'not_found' }));
  });
});

