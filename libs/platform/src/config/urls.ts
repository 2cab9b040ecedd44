/** Whether the text is an absolute http or https URL. */
export function isHttpUrl(value: string): boolean {
  try {
    return ['http:', 'https:'].includes(new URL(value).protocol);
  } catch {
    return false;
  }
}

/**
 * Whether a URL's host is this machine itself (localhost, 127.0.0.0/8, ::1) or the unspecified
 * address (0.0.0.0, ::): an address a phone on the network cannot reach. WHATWG URL parsing has
 * already normalised the IPv4 shorthands (127.1, 0, 0x7f.1) and IPv6 forms before this looks.
 */
export function isLoopbackUrl(url: string): boolean {
  let hostname: string;
  try {
    hostname = new URL(url).hostname.toLowerCase().replace(/\.$/, '');
  } catch {
    return false;
  }
  if (hostname === 'localhost' || hostname.endsWith('.localhost')) return true;
  if (hostname === '0.0.0.0' || /^127\.\d+\.\d+\.\d+$/.test(hostname)) return true;
  if (!hostname.startsWith('[')) return false;
  const ipv6 = hostname.slice(1, -1);
  // ::1, ::, and the IPv4-mapped forms of 127.0.0.0/8 and 0.0.0.0 (::ffff:7fxx:xxxx, ::ffff:0:0).
  return ipv6 === '::1' || ipv6 === '::' || /^::ffff:7f[0-9a-f]{2}:[0-9a-f]{1,4}$/.test(ipv6) || ipv6 === '::ffff:0:0';
}
