import { describe, expect, it } from 'vitest';
import { parseCookies, serializeCookie } from './cookies.js';

describe(parseCookies.name, () => {
  it('reads name=value pairs, trimming, unquoting and decoding', () => {
    const sut = parseCookies(' smsq_sid=abc ; theme="dark"; name=J%C3%BCrgen;empty=');

    expect(Object.fromEntries(sut)).toEqual({ smsq_sid: 'abc', theme: 'dark', name: 'Jürgen', empty: '' });
  });

  it('keeps the first of two cookies with one name, as the browser sends the most specific first', () => {
    expect(parseCookies('a=1; a=2').get('a')).toBe('1');
  });

  it('ignores pairs without a name and values that are not valid percent-encoding stay as they are', () => {
    const sut = parseCookies('=x; novalue; bad=%E0%A4%A; ok=1');

    expect(Object.fromEntries(sut)).toEqual({ bad: '%E0%A4%A', ok: '1' });
  });

  it('reads no header as no cookies', () => {
    expect(parseCookies(undefined).size).toBe(0);
    expect(parseCookies('').size).toBe(0);
  });

  it('keeps = signs inside a value', () => {
    expect(parseCookies('token=a=b=c').get('token')).toBe('a=b=c');
  });
});

describe(serializeCookie.name, () => {
  it('makes an httpOnly, SameSite=Strict cookie for the whole site', () => {
    expect(serializeCookie('smsq_sid', 'abc', { secure: false })).toBe('smsq_sid=abc; Path=/; HttpOnly; SameSite=Strict');
  });

  it('adds Secure over HTTPS and Max-Age=0 to delete', () => {
    expect(serializeCookie('smsq_sid', '', { secure: true, maxAgeS: 0 })).toBe('smsq_sid=; Path=/; HttpOnly; SameSite=Strict; Secure; Max-Age=0');
  });

  it('encodes the value and refuses a name that would break the header', () => {
    expect(serializeCookie('a', 'x; Domain=evil.test', { secure: false })).toBe('a=x%3B%20Domain%3Devil.test; Path=/; HttpOnly; SameSite=Strict');
    expect(() => serializeCookie('a;b', 'x', { secure: false })).toThrow();
  });
});
