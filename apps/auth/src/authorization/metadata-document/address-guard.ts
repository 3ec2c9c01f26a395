import { lookup as dnsLookup } from 'node:dns';
import { BlockList, isIP, type LookupFunction } from 'node:net';

/**
 * CM-08: the addresses a document is never fetched from, whatever name leads there: everything
 * that is not the public internet (RFC 6890 special-purpose ranges). A document URL is chosen by
 * whoever sends the authorization request, so without this the server would make requests into
 * its own network for them (SSRF): the cloud metadata service at 169.254.169.254, an admin port
 * on loopback, a database on 10.x. Node's BlockList matches the IPv4-mapped IPv6 form
 * (`::ffff:10.0.0.1`) of each IPv4 range too.
 */
const NOT_PUBLIC: ReadonlyArray<readonly [string, number, 'ipv4' | 'ipv6']> = [
  ['0.0.0.0', 8, 'ipv4'], // "this network", 0.0.0.0 (unspecified)
  ['10.0.0.0', 8, 'ipv4'], // private (RFC 1918)
  ['100.64.0.0', 10, 'ipv4'], // carrier-grade NAT (RFC 6598)
  ['127.0.0.0', 8, 'ipv4'], // loopback
  ['169.254.0.0', 16, 'ipv4'], // link-local, cloud metadata services (169.254.169.254)
  ['172.16.0.0', 12, 'ipv4'], // private (RFC 1918)
  ['192.0.0.0', 24, 'ipv4'], // IETF protocol assignments
  ['192.0.2.0', 24, 'ipv4'], // documentation (TEST-NET-1)
  ['192.88.99.0', 24, 'ipv4'], // 6to4 relay anycast
  ['192.168.0.0', 16, 'ipv4'], // private (RFC 1918)
  ['198.18.0.0', 15, 'ipv4'], // benchmarking
  ['198.51.100.0', 24, 'ipv4'], // documentation (TEST-NET-2)
  ['203.0.113.0', 24, 'ipv4'], // documentation (TEST-NET-3)
  ['224.0.0.0', 4, 'ipv4'], // multicast
  ['240.0.0.0', 4, 'ipv4'], // reserved, and 255.255.255.255 (broadcast)
  ['::', 128, 'ipv6'], // unspecified
  ['::1', 128, 'ipv6'], // loopback
  ['::', 96, 'ipv6'], // IPv4-compatible (deprecated)
  ['64:ff9b::', 96, 'ipv6'], // NAT64 (RFC 6052): would reach any IPv4 address, private ones included
  ['64:ff9b:1::', 48, 'ipv6'], // local-use NAT64 (RFC 8215)
  ['100::', 64, 'ipv6'], // discard-only
  ['2001::', 32, 'ipv6'], // Teredo: tunnels to an IPv4 address
  ['2001:db8::', 32, 'ipv6'], // documentation
  ['2002::', 16, 'ipv6'], // 6to4: tunnels to an IPv4 address
  ['fc00::', 7, 'ipv6'], // unique local (ULA)
  ['fe80::', 10, 'ipv6'], // link-local
  ['fec0::', 10, 'ipv6'], // site-local (deprecated)
  ['ff00::', 8, 'ipv6'], // multicast
];

const notPublic = new BlockList();
for (const [network, prefix, type] of NOT_PUBLIC) notPublic.addSubnet(network, prefix, type);

const loopback = new BlockList();
loopback.addSubnet('127.0.0.0', 8, 'ipv4');
loopback.addAddress('::1', 'ipv6');

/** Where the address is refused: an IP literal in the URL, or one a name resolved to. */
export class ForbiddenAddress extends Error {
  constructor() {
    super('The document address is not a public internet address.');
    this.name = 'ForbiddenAddress';
  }
}

/**
 * CM-08: whether a document may be fetched from this address. Only public addresses; loopback
 * as well with `allowLoopback` (CIMD_ALLOW_LOOPBACK, which production refuses to start with).
 * Anything that is not an IP address is refused.
 */
export function isAllowedAddress(address: string, allowLoopback: boolean): boolean {
  const family = isIP(address);
  if (family === 0) return false;
  const type = family === 4 ? 'ipv4' : 'ipv6';
  if (allowLoopback && loopback.check(address, type)) return true;
  return !notPublic.check(address, type);
}

type Resolve = (
  hostname: string,
  options: { all: true; family?: number; hints?: number },
  callback: (err: NodeJS.ErrnoException | null, addresses: Array<{ address: string; family: number }>) => void,
) => void;

/**
 * CM-08: the `lookup` of the document request. Every address the name resolves to is checked,
 * and the connection is made to the addresses checked here, not to a second resolution, so a
 * name that answers a public address to a first lookup and 127.0.0.1 to the next (DNS rebinding)
 * gains nothing. One forbidden address refuses the name, rather than trying the others: a name
 * that points anywhere private is not a public document's. `resolve` is dns.lookup; tests pass
 * their own answers.
 */
export function guardedLookup(allowLoopback: boolean, resolve: Resolve = dnsLookup as Resolve): LookupFunction {
  return (hostname, options, callback) => {
    const { family, hints } = options as { family?: number; hints?: number };
    resolve(hostname, { all: true, ...(family ? { family } : {}), ...(hints ? { hints } : {}) }, (err, addresses) => {
      if (err) {
        callback(err, '', 0);
        return;
      }
      if (addresses.length === 0 || addresses.some((a) => !isAllowedAddress(a.address, allowLoopback))) {
        callback(new ForbiddenAddress(), '', 0);
        return;
      }
      if ((options as { all?: boolean }).all) callback(null, addresses);
      else callback(null, addresses[0]!.address, addresses[0]!.family);
    });
  };
}
