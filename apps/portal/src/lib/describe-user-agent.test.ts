import { describe, expect, it } from 'vitest';
import { describeUserAgent } from './describe-user-agent.ts';

describe('TR-15 a short description of a User-Agent', () => {
  it.each([
    [
      'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
      'Chrome on macOS',
    ],
    [
      'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.2903.86',
      'Edge on Windows',
    ],
    ['Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0', 'Firefox on Linux'],
    [
      'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1',
      'Safari on iOS',
    ],
    [
      'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36',
      'Chrome on Android',
    ],
    [
      'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/156.0.0.0 Safari/537.36',
      'Chrome on Linux',
    ],
  ])('TR-15 names a browser and its system: %s', (userAgent, short) => {
    expect(describeUserAgent(userAgent)).toBe(short);
  });

  it.each([
    ['curl/8.5.0', 'curl/8.5'],
    ['python-requests/2.31.0', 'python-requests/2.31'],
    ['Playwright/1.64.0 (x64; ubuntu 24.04) node/24.11', 'Playwright/1.64'],
    ['node', 'node'],
    ['Go-http-client/1.1', 'Go-http-client/1.1'],
    ['latchkey-cli/v2', 'latchkey-cli/2'],
  ])('TR-15 names a tool by its first product and version: %s', (userAgent, short) => {
    expect(describeUserAgent(userAgent)).toBe(short);
  });

  it('TR-15 cuts what it cannot read to 40 characters, and a blank header is nothing', () => {
    expect(describeUserAgent(`(${'x'.repeat(100)})`)).toBe(`(${'x'.repeat(38)}…`);
    expect(describeUserAgent(`${'a'.repeat(60)}/1.0`)).toBe(`${'a'.repeat(39)}…`);
    expect(describeUserAgent('   ')).toBeNull();
  });
});
