import { describe, expect, it } from 'vitest';
import { isLoopbackUrl } from './urls.js';

describe(isLoopbackUrl.name, () => {
  it.each([
    'http://localhost:3000',
    'http://LOCALHOST.:3000/',
    'http://api.localhost',
    'http://127.0.0.1:3000',
    'http://127.45.6.7',
    'http://127.1:3000',
    'http://0.0.0.0:3000',
    'http://0:3000',
    'http://[::1]:3000',
    'http://[0:0:0:0:0:0:0:1]/',
    'http://[::]:3000',
    'http://[::ffff:127.0.0.1]:3000',
  ])('finds %s unreachable from a phone', (url) => {
    expect(isLoopbackUrl(url)).toBe(true);
  });

  it.each(['http://192.168.1.10:3000', 'https://sms.example.com', 'http://10.0.0.2', 'http://128.0.0.1', 'http://[fe80::1]:3000', 'http://localhost-box.lan', 'http://[::ffff:192.168.1.10]/', 'not a url'])(
    'finds %s reachable (or no URL at all)',
    (url) => {
      expect(isLoopbackUrl(url)).toBe(false);
    },
  );
});
