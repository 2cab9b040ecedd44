import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import { BlockList, isIP, type LookupFunction } from 'node:net';

/** Addresses a webhook must not reach unless the operator allows it: loopback, private, link-local, shared, multicast and reserved ranges. */
const NOT_PUBLIC = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['127.0.0.0', 8], ['169.254.0.0', 16], ['172.16.0.0', 12], ['192.0.0.0', 24],
  ['192.168.0.0', 16], ['198.18.0.0', 15], ['224.0.0.0', 4], ['240.0.0.0', 4],
] as const) NOT_PUBLIC.addSubnet(network, prefix, 'ipv4');
// IPv6 forms that carry or reach IPv4 (mapped, compatible, NAT64, 6to4, Teredo) are refused whole: an IPv4 address hides inside them.
for (const [network, prefix] of [
  ['::', 96], ['::1', 128], ['::ffff:0:0', 96], ['64:ff9b::', 96], ['64:ff9b:1::', 48], ['100::', 64], ['2001::', 32], ['2002::', 16],
  ['fc00::', 7], ['fec0::', 10], ['fe80::', 10], ['ff00::', 8],
] as const) NOT_PUBLIC.addSubnet(network, prefix, 'ipv6');

export function isPublicAddress(address: string): boolean {
  const family = isIP(address);
  return family !== 0 && !NOT_PUBLIC.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

export class RefusedAddressError extends Error {}

/**
 * Resolves like dns.lookup but refuses a name with any address that is not public. The request
 * connects to exactly the address checked here, so a name cannot resolve to a public address
 * for the check and a private one for the connection.
 */
function guardedLookup(allowPrivate: boolean): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { all: true, family: options.family ?? 0 }, (error, addresses: LookupAddress[]) => {
      if (error) return callback(error, '', 0);
      const refused = addresses.find((entry) => !allowPrivate && !isPublicAddress(entry.address));
      if (refused) return callback(new RefusedAddressError(`${hostname} resolves to ${refused.address}, which is not a public address`), '', 0);
      if (options.all) return (callback as unknown as (error: null, addresses: LookupAddress[]) => void)(null, addresses);
      const first = addresses[0];
      if (!first) return callback(new Error(`${hostname} has no address`), '', 0);
      callback(null, first.address, first.family);
    });
  };
}

export interface PostOutcome {
  statusCode: number;
}

/**
 * POSTs `body` to `url` with SSRF protection: no redirects are followed, the time is bounded, and
 * unless `allowPrivate` the address connected to must be public (checked after resolving, on the
 * address actually used). The answer's body is read and discarded.
 */
export function guardedPost(url: URL, body: string, headers: Record<string, string>, options: { timeoutMs: number; allowPrivate: boolean }): Promise<PostOutcome> {
  const literal = url.hostname.replace(/^\[|\]$/g, '');
  if (isIP(literal) !== 0 && !options.allowPrivate && !isPublicAddress(literal)) {
    return Promise.reject(new RefusedAddressError(`${literal} is not a public address`));
  }
  const transport = url.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    const request = transport.request(
      url,
      {
        method: 'POST',
        headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) },
        lookup: guardedLookup(options.allowPrivate),
        signal: AbortSignal.timeout(options.timeoutMs),
        agent: false,
      },
      (response) => {
        response.resume();
        response.on('end', () => resolve({ statusCode: response.statusCode ?? 0 }));
        response.on('error', reject);
      },
    );
    request.on('error', (error) => reject(error.name === 'AbortError' || error.name === 'TimeoutError' ? new Error(`no answer within ${options.timeoutMs} ms`) : error));
    request.end(body);
  });
}
