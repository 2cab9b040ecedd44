import type { ServiceClient } from '@smsq/platform';
import { describe, expect, it } from 'vitest';
import { COMMANDS, type Services } from './commands.js';
import { Flags } from './flags.js';

/** A usable value of every flag any command declares. */
const SAMPLES: Record<string, string> = {
  amount: '100',
  client: '9',
  daily: '300',
  email: 'ops@example.com',
  events: 'task.sent,task.failed',
  id: '5',
  jitter: '5',
  key: '3',
  mode: 'sticky',
  'monthly-recipients': '100',
  name: 'Acme',
  number: '+381641234567',
  password: 'a long enough password',
  'per-minute': '20',
  phone: '4',
  phones: '3',
  plan: 'starter',
  sims: '2',
  source: 'ACME,+381641234567',
  'sticky-days': '14',
  'system-id': 'kannel',
  timezone: 'Asia/Tokyo',
  token: '7',
  url: 'https://example.com/hooks',
  webhook: '2',
  windows: 'mon-fri 08:00-21:00, sat 10:00-14:00',
};

/** Thrown by every service: a command that gets this far has read and accepted all its flags. */
class ServiceAsked extends Error {}

const services = (): Services => {
  const client = {
    send: async () => {
      throw new ServiceAsked();
    },
  } as unknown as ServiceClient;
  return { gateway: client, billing: client, dispatch: client, dashboard: client };
};

describe('COMMANDS', () => {
  it.each(Object.entries(COMMANDS))('%s reads exactly the flags it declares', async (_name, command) => {
    const given = new Map(command.flags.map((flag) => [flag.name, SAMPLES[flag.name] ?? `no sample for --${flag.name}`]));
    const sut = new Flags(given, command.flags);

    await expect(command.run(sut, services())).rejects.toBeInstanceOf(ServiceAsked);
    expect([...sut.read].sort()).toEqual(command.flags.map((flag) => flag.name).sort());
  });

  it.each(Object.entries(COMMANDS))('%s declares each flag once, with a summary and a meaning for each', (_name, command) => {
    const names = command.flags.map((flag) => flag.name);
    expect(new Set(names).size).toBe(names.length);
    expect(command.summary).toMatch(/^[A-Z].*\.$/);
    for (const flag of command.flags) expect(flag.meaning.trim()).not.toBe('');
  });
});
