import { describe, expect, it } from 'vitest';
import { parseRegisterPhone } from './register-phone-request.js';

describe(parseRegisterPhone.name, () => {
  it('reads a name, a device id and a URL', () => {
    expect(parseRegisterPhone({ name: ' Office ', device_id: 'android-1', url: 'http://10.0.0.2:8080' })).toEqual({ name: 'Office', deviceId: 'android-1', url: 'http://10.0.0.2:8080' });
    expect(parseRegisterPhone({ name: 'Office' })).toEqual({ name: 'Office', deviceId: undefined, url: undefined });
  });

  it.each([{}, { name: '' }, { name: 'x'.repeat(101) }, { name: 'a', device_id: 7 }, { name: 'a', url: 'ftp://x' }, { name: 'a', url: 'not a url' }, { name: 'a\u0000b' }, { name: 'ab', device_id: 'x\u0000' }, { name: '\ud800' }])('refuses %j', (body) => {
    expect(() => parseRegisterPhone(body)).toThrow();
  });
});
