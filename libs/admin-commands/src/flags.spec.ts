import { describe, expect, it } from 'vitest';
import { Flags, optionalFlag, parseCommandLine, requiredFlag } from './flags.js';

describe(parseCommandLine.name, () => {
  it('reads the noun, the verb and each flag with its value', () => {
    const line = parseCommandLine(['client', 'create', '--name', 'Acme Ltd', '--plan', 'pro']);
    expect(line.noun).toBe('client');
    expect(line.verb).toBe('create');
    expect(Object.fromEntries(line.flags)).toEqual({ name: 'Acme Ltd', plan: 'pro' });
  });

  it.each([
    [['client'], 'usage'],
    [['client', 'create', '--name'], 'needs a value'],
    [['client', 'create', 'name', 'x'], 'expected a --flag'],
    [['client', 'create', '--name', 'a', '--name', 'b'], 'given twice'],
  ])('refuses %j', (argv, message) => {
    expect(() => parseCommandLine(argv)).toThrow(message);
  });
});

describe(Flags.name, () => {
  it('reads whole numbers and refuses anything else', () => {
    const sut = new Flags(new Map([['client', '12'], ['amount', '-3']]));
    expect(sut.integer('client')).toBe(12);
    expect(() => sut.integer('amount')).toThrow('whole number');
  });

  it('names a required flag that is missing', () => {
    expect(() => new Flags(new Map()).text('name')).toThrow('--name is required');
  });

  it('refuses flags the command does not take', () => {
    const sut = new Flags(new Map([['name', 'x'], ['colour', 'red']]));
    sut.text('name');
    expect(() => sut.rejectUnknown()).toThrow('--colour');
  });

  it('refuses a flag its command does not declare, whether read or not', () => {
    const sut = new Flags(new Map([['client', '9'], ['colour', 'red']]), [requiredFlag('client', 'ID', 'the client'), optionalFlag('name', 'NAME', 'a name')]);
    expect(sut.integer('client')).toBe(9);
    expect(() => sut.rejectUnknown()).toThrow('unknown flag --colour');
  });

  it('takes a declared flag left out and not read', () => {
    const sut = new Flags(new Map([['client', '9']]), [requiredFlag('client', 'ID', 'the client'), optionalFlag('name', 'NAME', 'a name')]);
    sut.integer('client');
    expect(() => sut.rejectUnknown()).not.toThrow();
  });

  it('stops a command that reads a flag it does not declare', () => {
    const sut = new Flags(new Map([['colour', 'red']]), [requiredFlag('client', 'ID', 'the client')]);
    expect(() => sut.optionalText('colour')).toThrow("--colour is read but not among its command's declared flags");
  });
});
