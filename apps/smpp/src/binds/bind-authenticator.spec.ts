import type { ServiceClient } from '@smsq/platform';
import type { SmppBindAnswer } from '@smsq/contracts';
import { describe, expect, it } from 'vitest';
import { CommandStatus } from '../protocol/index.js';
import { BindAuthenticator } from './bind-authenticator.js';

const identity = { credentialId: 3, clientId: 7, systemId: 'myshop', sourceAddresses: [], timezone: 'Europe/Belgrade', createdAt: '2026-11-28T10:00:00.000Z' };

/** A gateway that answers every bind with `answer`, recording what it was asked. */
function gatewayAnswering(answer: SmppBindAnswer) {
  const asked: unknown[] = [];
  const gateway = { send: async (_pattern: string, query: unknown) => (asked.push(query), answer) } as unknown as ServiceClient;
  return { sut: new BindAuthenticator(gateway), asked };
}

describe(BindAuthenticator.name, () => {
  it('binds with the identity the gateway answers', async () => {
    const { sut, asked } = gatewayAnswering({ ok: true, identity });
    await expect(sut.authenticate('myshop', 'q3Xk9TbZ')).resolves.toEqual({ ok: true, identity });
    expect(asked).toEqual([{ systemId: 'myshop', password: 'q3Xk9TbZ' }]);
  });

  it('tells an unknown system_id, a wrong password and a credential that may not bind apart', async () => {
    const statusOf = async (refusal: Extract<SmppBindAnswer, { ok: false }>['refusal']) => (await gatewayAnswering({ ok: false, refusal, detail: '' }).sut.authenticate('myshop', 'x')) as { status: number };
    expect((await statusOf('unknown_system_id')).status).toBe(CommandStatus.ESME_RINVSYSID);
    expect((await statusOf('wrong_password')).status).toBe(CommandStatus.ESME_RINVPASWD);
    expect((await statusOf('revoked')).status).toBe(CommandStatus.ESME_RBINDFAIL);
    expect((await statusOf('client_disabled')).status).toBe(CommandStatus.ESME_RBINDFAIL);
  });

  it('refuses what no credential can be without asking: an empty or over-long system_id, a password over 8 characters', async () => {
    const { sut, asked } = gatewayAnswering({ ok: true, identity });
    await expect(sut.authenticate('', 'x')).resolves.toEqual({ ok: false, status: CommandStatus.ESME_RINVSYSID });
    await expect(sut.authenticate('a'.repeat(16), 'x')).resolves.toEqual({ ok: false, status: CommandStatus.ESME_RINVSYSID });
    await expect(sut.authenticate('myshop', '123456789')).resolves.toEqual({ ok: false, status: CommandStatus.ESME_RINVPASWD });
    expect(asked).toEqual([]);
  });
});
