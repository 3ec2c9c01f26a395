import { describe, expect, it } from 'vitest';
import { sameOriginPath } from './return-path.ts';

const ORIGIN = 'http://127.0.0.1:4000';

describe('OR-01 return_to accepts only same-origin relative paths', () => {
  it.each([
    'https://evil.example',
    '//evil.example',
    '/\\evil.example',
    '\\\\evil.example',
    'https:evil.example',
    'javascript:alert(1)',
    '%2F%2Fevil.example',
    '/.//evil.example',
    '/%2e//evil.example',
    '/\tevil',
    '/a\nb',
    'evil.example',
    '',
    `http://127.0.0.1:4000/`,
  ])('rejects %j', (value) => {
    expect(sameOriginPath(value, ORIGIN)).toBeUndefined();
  });

  it.each([
    ['/', '/'],
    ['/account?tab=tokens', '/account?tab=tokens'],
    ['/a/../b', '/b'],
    ['/%2F%2Fevil.example', '/%2F%2Fevil.example'],
  ])('accepts %j as %j', (value, expected) => {
    expect(sameOriginPath(value, ORIGIN)).toBe(expected);
  });

  it('rejects non-strings (a repeated parameter arrives as an array)', () => {
    expect(sameOriginPath(['/a', '/b'], ORIGIN)).toBeUndefined();
    expect(sameOriginPath(undefined, ORIGIN)).toBeUndefined();
  });
});
