/**
 * Reads a Cookie header into name → value. The first of several cookies with one name wins (the
 * browser sends the most specific path first); values are percent-decoded when they can be.
 */
export function parseCookies(header: string | string[] | undefined): Map<string, string> {
  const cookies = new Map<string, string>();
  const text = Array.isArray(header) ? header.join('; ') : (header ?? '');
  for (const pair of text.split(';')) {
    const equals = pair.indexOf('=');
    if (equals < 1) continue;
    const name = pair.slice(0, equals).trim();
    if (name === '' || cookies.has(name)) continue;
    let value = pair.slice(equals + 1).trim();
    if (value.length >= 2 && value.startsWith('"') && value.endsWith('"')) value = value.slice(1, -1);
    cookies.set(name, decodeOrKeep(value));
  }
  return cookies;
}

function decodeOrKeep(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

export interface CookieOptions {
  /** Only over HTTPS. */
  secure: boolean;
  /** Seconds; 0 deletes the cookie; absent: until the browser ends the session. */
  maxAgeS?: number;
}

/** A Set-Cookie value for the dashboard's cookies: whole site, never readable by scripts, never sent cross-site. */
export function serializeCookie(name: string, value: string, options: CookieOptions): string {
  if (!/^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/.test(name)) throw new Error(`invalid cookie name ${JSON.stringify(name)}`);
  const parts = [`${name}=${encodeURIComponent(value)}`, 'Path=/', 'HttpOnly', 'SameSite=Strict'];
  if (options.secure) parts.push('Secure');
  if (options.maxAgeS !== undefined) parts.push(`Max-Age=${Math.max(0, Math.floor(options.maxAgeS))}`);
  return parts.join('; ');
}
