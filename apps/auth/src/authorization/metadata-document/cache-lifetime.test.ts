// CM-10: how long a fetched document is used before it is fetched again.
import { describe, expect, it } from 'vitest';
import { cacheLifetimeSeconds, DEFAULT_CACHE_SECONDS, MAX_CACHE_SECONDS } from './cache-lifetime.ts';

const NOW = Date.parse('2026-12-02T12:00:00Z');

describe('CM-10 cache lifetime from the HTTP caching headers (RFC 9111), at most 24 hours', () => {
  it.each([
    [{ cacheControl: 'max-age=600' }, 600],
    [{ cacheControl: 'public, max-age=600' }, 600],
    [{ cacheControl: 'MAX-AGE=600' }, 600],
    [{ cacheControl: 'max-age="600"' }, 600],
    [{ cacheControl: 'max-age=600', age: '100' }, 500],
    [{ cacheControl: 'max-age=600', age: '900' }, 0],
    [{ cacheControl: 'max-age=0' }, 0],
    [{ cacheControl: 'max-age=31536000' }, MAX_CACHE_SECONDS],
    [{ cacheControl: 'max-age=abc' }, 0],
    [{ cacheControl: 'max-age=-5' }, 0],
    [{ cacheControl: 'no-store' }, 0],
    [{ cacheControl: 'no-cache, max-age=600' }, 0],
    [{ cacheControl: 'max-age=600, no-store' }, 0],
    [{ cacheControl: 'max-age=600', expires: 'Wed, 02 Dec 2026 13:00:00 GMT' }, 600],
    [{ expires: 'Wed, 02 Dec 2026 12:10:00 GMT' }, 600],
    [{ expires: 'Wed, 02 Dec 2026 12:10:00 GMT', date: 'Wed, 02 Dec 2026 12:05:00 GMT' }, 300],
    [{ expires: 'Wed, 02 Dec 2026 11:00:00 GMT' }, 0],
    [{ expires: 'Fri, 01 Jan 2027 00:00:00 GMT' }, MAX_CACHE_SECONDS],
    [{ expires: '0' }, 0],
    [{ expires: 'never' }, 0],
    [{}, DEFAULT_CACHE_SECONDS],
    [{ cacheControl: 'public' }, DEFAULT_CACHE_SECONDS],
  ])('CM-10 %j: %d s', (headers, seconds) => {
    expect(cacheLifetimeSeconds(headers, NOW)).toBe(seconds);
  });

  it('CM-10 the default without headers is one hour, within the 24 h bound', () => {
    expect(DEFAULT_CACHE_SECONDS).toBe(3600);
    expect(MAX_CACHE_SECONDS).toBe(86_400);
  });
});
