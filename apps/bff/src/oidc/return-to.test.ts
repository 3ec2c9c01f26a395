import { describe, expect, it } from 'vitest';
import { safeReturnPath } from './return-to.ts';

// The same-origin rules themselves (schemes, //host, backslashes, encodings, control
// characters, length) are @latchkey/http's and tested there (packages/http/src/return-path.test.ts).
// This is only what the BFF adds: never back to one of its own endpoints, and `/` otherwise.
const ORIGIN = 'http://127.0.0.1:3000';

describe("OR-02 the BFF's returnTo: a portal page, never a /bff endpoint", () => {
  it.each(['/bff/login', '/BFF/logout', '/bff', '/bff/callback?code=x'])('%j gives /', (value) => {
    expect(safeReturnPath(value, ORIGIN)).toBe('/');
  });

  it.each([
    ['/tokens?sort=name', '/tokens?sort=name'],
    ['/bffx', '/bffx'],
  ])('%j is kept as %j', (value, expected) => {
    expect(safeReturnPath(value, ORIGIN)).toBe(expected);
  });

  it('HD-15 a path that resolves longer than 2,048 characters gives / (it must fit in the transaction cookie)', () => {
    expect(safeReturnPath(`/${'a'.repeat(2047)}`, ORIGIN)).toBe(`/${'a'.repeat(2047)}`);
    // 2,000 characters that percent-encoding makes 12,000.
    expect(safeReturnPath(`/${'é'.repeat(1999)}`, ORIGIN)).toBe('/');
  });

  it('what the shared rule refuses (another origin, nothing, a repeated parameter) gives /', () => {
    for (const value of ['https://evil.example', '//evil.example', undefined, ['/a', '/b']]) {
      expect(safeReturnPath(value, ORIGIN)).toBe('/');
    }
  });
});
