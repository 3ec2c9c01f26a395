// CM-08: the SSRF guard of the document fetch, as a table of addresses and through the lookup
// hook the connection uses (every resolved address checked; the connection gets those).
import type { LookupAddress } from 'node:dns';
import { describe, expect, it } from 'vitest';
import { ForbiddenAddress, guardedLookup, isAllowedAddress } from './address-guard.ts';

const PUBLIC = ['8.8.8.8', '1.1.1.1', '93.184.216.34', '2606:4700:4700::1111', '2001:4860:4860::8888'];
const LOOPBACK = ['127.0.0.1', '127.255.255.254', '::1', '::ffff:127.0.0.1'];
const NEVER = [
  '10.0.0.1', // RFC 1918
  '172.16.0.1',
  '172.31.255.255',
  '192.168.1.1',
  '100.64.0.1', // CGNAT
  '100.127.255.255',
  '169.254.169.254', // cloud metadata
  '169.254.0.1', // link-local
  '0.0.0.0', // unspecified
  '255.255.255.255', // broadcast
  '224.0.0.1', // multicast
  '239.255.255.250',
  '::', // unspecified
  'fc00::1', // ULA
  'fd12:3456::1',
  'fe80::1', // link-local
  'ff02::1', // multicast
  '::ffff:10.0.0.1', // IPv4-mapped forms
  '::ffff:169.254.169.254',
  '::ffff:a9fe:a9fe',
  '::ffff:192.168.0.1',
  '::ffff:0.0.0.0',
  '64:ff9b::a00:1', // NAT64 to 10.0.0.1
  '2002:a00:1::1', // 6to4 of 10.0.0.1
  'localhost', // a name is not an address
  'not an address',
];

describe('CM-08 which addresses a document may be fetched from', () => {
  it.each(PUBLIC)('CM-08 public %s: allowed', (address) => {
    expect(isAllowedAddress(address, false)).toBe(true);
    expect(isAllowedAddress(address, true)).toBe(true);
  });

  it.each(LOOPBACK)('CM-08 loopback %s: refused, allowed only with CIMD_ALLOW_LOOPBACK', (address) => {
    expect(isAllowedAddress(address, false)).toBe(false);
    expect(isAllowedAddress(address, true)).toBe(true);
  });

  it.each(NEVER)('CM-08 %s: refused, with or without CIMD_ALLOW_LOOPBACK', (address) => {
    expect(isAllowedAddress(address, false)).toBe(false);
    expect(isAllowedAddress(address, true)).toBe(false);
  });
});

/** The lookup hook over a resolver that answers `answers` (as dns.lookup with all: true would). */
function lookupWith(answers: LookupAddress[], allowLoopback = false, all = true) {
  const lookup = guardedLookup(allowLoopback, (_host, _options, callback) => callback(null, answers));
  return new Promise<{ err: Error | null; address: string | LookupAddress[]; family?: number }>((resolve) =>
    lookup('docs.example', { all }, (err, address, family) => resolve({ err, address, family })),
  );
}

describe('CM-08 the lookup hook checks every resolved address (DNS rebinding)', () => {
  it('CM-08 all public: the connection gets exactly those addresses', async () => {
    const answers = [
      { address: '93.184.216.34', family: 4 },
      { address: '2606:4700:4700::1111', family: 6 },
    ];
    expect(await lookupWith(answers)).toEqual({ err: null, address: answers, family: undefined });
    expect(await lookupWith(answers, false, false)).toEqual({ err: null, address: '93.184.216.34', family: 4 });
  });

  it('CM-08 one private address among public ones refuses the name', async () => {
    for (const bad of ['127.0.0.1', '10.1.2.3', '169.254.169.254', '::ffff:7f00:1', 'fd00::1']) {
      const { err } = await lookupWith([
        { address: '93.184.216.34', family: 4 },
        { address: bad, family: bad.includes(':') ? 6 : 4 },
      ]);
      expect(err).toBeInstanceOf(ForbiddenAddress);
    }
  });

  it('CM-08 no address at all is refused, and a resolver error passes through', async () => {
    expect((await lookupWith([])).err).toBeInstanceOf(ForbiddenAddress);
    const failing = guardedLookup(false, (_h, _o, callback) =>
      callback(Object.assign(new Error('getaddrinfo ENOTFOUND'), { code: 'ENOTFOUND' }), []),
    );
    const err = await new Promise<Error | null>((resolve) => failing('nowhere.example', { all: true }, resolve));
    expect((err as NodeJS.ErrnoException).code).toBe('ENOTFOUND');
  });

  it('CM-08 loopback answers pass only with CIMD_ALLOW_LOOPBACK', async () => {
    const answers = [{ address: '127.0.0.1', family: 4 }];
    expect((await lookupWith(answers, false)).err).toBeInstanceOf(ForbiddenAddress);
    expect((await lookupWith(answers, true)).err).toBeNull();
  });
});
