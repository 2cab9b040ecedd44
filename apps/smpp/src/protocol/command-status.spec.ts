import { describe, expect, it } from 'vitest';
import { commandName, isResponse, knownCommand, responseIdOf } from './command-id.js';
import { CommandStatus, commandStatusName } from './command-status.js';

describe(commandStatusName.name, () => {
  it('names a status for logs and metrics, and shows an unknown one in hex', () => {
    expect(commandStatusName(CommandStatus.ESME_RTHROTTLED)).toBe('ESME_RTHROTTLED');
    expect(commandStatusName(0x58)).toBe('ESME_RTHROTTLED');
    expect(commandStatusName(0x400)).toBe('0x00000400');
  });
});

describe(commandName.name, () => {
  it('names a command, and shows an unknown one in hex', () => {
    expect(commandName(0x80000004)).toBe('submit_sm_resp');
    expect(commandName(0x103)).toBe('0x00000103');
    expect(knownCommand(0x103)).toBeUndefined();
  });

  it('tells a response by its high bit and finds the response to a request', () => {
    expect(isResponse(0x80000015)).toBe(true);
    expect(isResponse(0x15)).toBe(false);
    expect(responseIdOf(0x04)).toBe(0x80000004);
  });
});
