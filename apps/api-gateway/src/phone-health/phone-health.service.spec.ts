import { Patterns, type Profile } from '@smsq/contracts';
import type { ServiceClient } from '@smsq/platform';
import { describe, expect, it, vi } from 'vitest';
import type { GatewayConfig } from '../config/gateway-config.js';
import { PhoneHealthService } from './phone-health.service.js';

function setUp(profile: Profile) {
  const dispatch = { send: vi.fn(async () => ({ ok: true })) };
  const sut = new PhoneHealthService({ profile } as GatewayConfig, dispatch as unknown as ServiceClient);
  return { sut, dispatch };
}

describe(PhoneHealthService.name, () => {
  it('records the report on the phone or gateway the token is bound to', async () => {
    for (const profile of ['A', 'B'] as const) {
      const { sut, dispatch } = setUp(profile);

      await expect(sut.report({ tokenId: 3, phoneId: 9 }, { batteryPercent: 40, connection: 'wifi' })).resolves.toEqual({ ok: true });

      expect(dispatch.send).toHaveBeenCalledWith(Patterns.dispatch.phoneHealthReport, { phoneId: 9, batteryPercent: 40, connection: 'wifi' });
    }
  });

  it('takes the report of an unbound Profile B token and keeps it nowhere', async () => {
    const { sut, dispatch } = setUp('B');

    await expect(sut.report({ tokenId: 3, phoneId: null }, { charging: true })).resolves.toEqual({ ok: true });

    expect(dispatch.send).not.toHaveBeenCalled();
  });

  it('refuses a Profile A token bound to no phone, as a claim does', async () => {
    const { sut, dispatch } = setUp('A');

    await expect(sut.report({ tokenId: 3, phoneId: null }, { charging: true })).rejects.toMatchObject({ code: 'unauthorized' });
    expect(dispatch.send).not.toHaveBeenCalled();
  });
});
