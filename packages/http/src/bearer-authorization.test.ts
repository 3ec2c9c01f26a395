import type { IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import { parseBearerAuthorization } from './bearer-authorization.ts';

/** What Node hands the app: headers lower-cased (the first of duplicates), rawHeaders as sent. */
function request(raw: [string, string][]): IncomingMessage {
  const headers: Record<string, string> = {};
  for (const [name, value] of raw) headers[name.toLowerCase()] ??= value;
  return { headers, rawHeaders: raw.flat() } as unknown as IncomingMessage;
}

const TOKEN = 'lkp_0123456789abcdefghijABCDEFGHIJabcdef';

describe('RFC 6750 §2.1 Authorization request header field', () => {
  it('reads the token of "Bearer <token>"', () => {
    expect(parseBearerAuthorization(request([['Authorization', `Bearer ${TOKEN}`]]))).toEqual({ kind: 'token', token: TOKEN });
  });

  it('P-05/GQ-05 the scheme is case-insensitive (RFC 9110 §11.1)', () => {
    for (const scheme of ['bearer', 'BEARER', 'bEaReR']) {
      expect(parseBearerAuthorization(request([['authorization', `${scheme} ${TOKEN}`]]))).toEqual({ kind: 'token', token: TOKEN });
    }
  });

  it('GQ-04 two spaces match "Bearer" 1*SP b64token and are accepted', () => {
    expect(parseBearerAuthorization(request([['authorization', `Bearer  ${TOKEN}`]]))).toEqual({ kind: 'token', token: TOKEN });
  });

  it('accepts every b64token character and trailing "=" (the format check is core\'s)', () => {
    expect(parseBearerAuthorization(request([['authorization', 'Bearer aZ09-._~+/==']]))).toEqual({ kind: 'token', token: 'aZ09-._~+/==' });
  });

  it('GQ-01 no Authorization header: no credentials', () => {
    expect(parseBearerAuthorization(request([]))).toEqual({ kind: 'none' });
  });

  it('GQ-06 another scheme is an unsupported method: treated as no credentials', () => {
    for (const value of ['Basic dXNlcjpwYXNz', 'Digest username="a"', 'Bearertoken', 'Token abc']) {
      expect(parseBearerAuthorization(request([['authorization', value]]))).toEqual({ kind: 'none' });
    }
  });

  it.each([
    ['GQ-02 "Bearer" with no token', 'Bearer'],
    ['GQ-03 an inner space', `Bearer ${TOKEN.slice(0, 10)} ${TOKEN.slice(10)}`],
    ['GQ-03 a tab as separator', `Bearer\t${TOKEN}`],
    ['characters outside b64token', 'Bearer abc$def'],
    ['"=" inside the token', 'Bearer ab=cd'],
  ])('%s is malformed (invalid_request)', (_name, value) => {
    expect(parseBearerAuthorization(request([['authorization', value]])).kind).toBe('malformed');
  });

  it('GQ-07 two Authorization headers are malformed even when both are valid', () => {
    const credentials = parseBearerAuthorization(
      request([
        ['Authorization', `Bearer ${TOKEN}`],
        ['authorization', `Bearer ${TOKEN}`],
      ]),
    );
    expect(credentials).toEqual({ kind: 'malformed', reason: 'Send exactly one Authorization header.' });
  });
});
