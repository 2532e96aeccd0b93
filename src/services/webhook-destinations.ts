// Where webhooks may be sent: public addresses only, unless the operator allows private ones
// (MODELGATE_WEBHOOK_ALLOW_PRIVATE). Otherwise an organization could make the gateway POST into the operator's own
// network: loopback, private ranges, link-local (the cloud metadata service at 169.254.169.254) and the like. A URL
// naming such an address is refused when the endpoint is saved; a name is checked when each delivery resolves it, so
// a name that later resolves to a private address (DNS rebinding) is refused too.
import { BlockList, isIP } from 'node:net';
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { Agent } from 'undici';

const NON_PUBLIC = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const)
  NON_PUBLIC.addSubnet(network, prefix, 'ipv4');
for (const [network, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['64:ff9b::', 96],
  ['100::', 64],
  ['2001:db8::', 32],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const)
  NON_PUBLIC.addSubnet(network, prefix, 'ipv6');

/** An IPv4 address written as IPv6 (`::ffff:127.0.0.1`, or its hex form): its IPv4 address. */
function mappedIpv4(address: string): string | undefined {
  const match = /^::ffff:(?:(\d+\.\d+\.\d+\.\d+)|([0-9a-f]{1,4}):([0-9a-f]{1,4}))$/i.exec(address);
  if (!match) return undefined;
  if (match[1] !== undefined) return match[1];
  const high = Number.parseInt(match[2], 16);
  const low = Number.parseInt(match[3], 16);
  return `${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`;
}

/** Whether `address` (an IP address) is reachable on the public internet. */
export function isPublicAddress(address: string): boolean {
  const bare = address.replace(/^\[|\]$/g, '').toLowerCase();
  const family = isIP(bare);
  if (family === 0) return false;
  const v4 = family === 6 ? mappedIpv4(bare) : bare;
  if (v4 !== undefined) return !NON_PUBLIC.check(v4, 'ipv4');
  return !NON_PUBLIC.check(bare, 'ipv6');
}

/** Why a URL's host cannot be a destination before any lookup (an address or a local name), else undefined. */
export function privateHostReason(url: URL): string | undefined {
  // A trailing dot names the same host (`localhost.`).
  const host = url.hostname
    .replace(/^\[|\]$/g, '')
    .replace(/\.$/, '')
    .toLowerCase();
  if (host === 'localhost' || host.endsWith('.localhost') || host.endsWith('.local') || host.endsWith('.internal'))
    return `${host} is a local name`;
  if (isIP(host) !== 0 && !isPublicAddress(host)) return `${host} is not a public address`;
  return undefined;
}

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/** dns.lookup that fails when any address a name resolves to is not public (undici asks for all of them). */
export function publicOnlyLookup(hostname: string, options: object, callback: LookupCallback): void {
  dnsLookup(hostname, { ...options, all: true }, (err, addresses) => {
    if (err) return callback(err, []);
    const refused = addresses.find((a) => !isPublicAddress(a.address));
    if (refused) {
      const error: NodeJS.ErrnoException = new Error(
        `${hostname} resolves to ${refused.address}, not a public address (MODELGATE_WEBHOOK_ALLOW_PRIVATE allows it)`,
      );
      error.code = 'EPRIVATEADDRESS';
      return callback(error, []);
    }
    const all = (options as { all?: boolean }).all === true;
    if (all) return callback(null, addresses);
    callback(null, addresses[0].address, addresses[0].family);
  });
}

/** The connection pool deliveries use when private destinations are not allowed. */
export function publicDestinationAgent(): Agent {
  return new Agent({ connect: { lookup: publicOnlyLookup } });
}
