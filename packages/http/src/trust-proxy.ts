import type { IncomingMessage } from 'node:http';
import proxyaddr from 'proxy-addr';

/**
 * TRUST_PROXY as Express understands it: `true`/`false`, a hop count, or a comma-separated
 * list of addresses, subnets or the names `loopback`, `linklocal`, `uniquelocal`.
 * Unset means no proxy is trusted.
 */
export function parseTrustProxy(value: string | undefined): boolean | number | string {
  if (value === undefined || value.trim() === '' || value === 'false') return false;
  if (value === 'true') return true;
  if (/^\d+$/.test(value.trim())) return Number(value.trim());
  return value;
}

/**
 * TR-06: the client's address as Express's `req.ip` reads it under TRUST_PROXY (proxy-addr, the
 * library Express uses): the socket's peer when no proxy is trusted, else the nearest
 * X-Forwarded-For entry that is not a trusted proxy. For the API, which is not Express.
 */
export function clientAddressReader(trustProxy: string | undefined): (req: IncomingMessage) => string | null {
  const setting = parseTrustProxy(trustProxy);
  if (setting === false) return (req) => req.socket.remoteAddress ?? null;
  const trust: (address: string, hop: number) => boolean =
    setting === true
      ? () => true
      : typeof setting === 'number'
        ? (_address, hop) => hop < setting
        : proxyaddr.compile(setting.split(',').map((entry) => entry.trim()));
  return (req) => {
    // proxy-addr reads the socket's address; a closed socket has none.
    if (req.socket.remoteAddress === undefined) return null;
    return proxyaddr(req, trust);
  };
}
