import { describe, expect, it } from 'vitest';
import { safeReturnPath } from './return-to.ts';

const ORIGIN = 'http://127.0.0.1:3000';

describe('OR-02 returnTo accepts only same-origin relative paths', () => {
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
    'http://127.0.0.1:3000/',
    '/bff/login',
    '/BFF/logout',
    '/bff',
    `/${'a'.repeat(2048)}`,
  ])('rejects %j', (value) => {
    expect(safeReturnPath(value, ORIGIN)).toBe('/');
  });

  it.each([
    ['/', '/'],
    ['/tokens?sort=name', '/tokens?sort=name'],
    ['/clients#new', '/clients'],
    ['/a/../explorer', '/explorer'],
    ['/%2F%2Fevil.example', '/%2F%2Fevil.example'],
    ['/bffx', '/bffx'],
  ])('accepts %j as %j', (value, expected) => {
    expect(safeReturnPath(value, ORIGIN)).toBe(expected);
  });

  it('non-strings (a repeated parameter arrives as an array) give /', () => {
    expect(safeReturnPath(['/a', '/b'], ORIGIN)).toBe('/');
    expect(safeReturnPath(undefined, ORIGIN)).toBe('/');
  });
});
