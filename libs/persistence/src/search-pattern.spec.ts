import { describe, expect, it } from 'vitest';
import { containsPattern } from './search-pattern.js';

describe(containsPattern.name, () => {
  it('matches the text anywhere', () => {
    expect(containsPattern('hello')).toBe('%hello%');
  });

  it.each([
    ['100%', '%100\\%%'],
    ['a_b', '%a\\_b%'],
    ['C:\\temp', '%C:\\\\temp%'],
    ['\\%_', '%\\\\\\%\\_%'],
  ])('escapes the wildcards and the escape character in %j', (search, pattern) => {
    expect(containsPattern(search)).toBe(pattern);
  });

  it('leaves every other character alone', () => {
    expect(containsPattern("+381 (64) 'x' * ? []")).toBe("%+381 (64) 'x' * ? []%");
  });
});
