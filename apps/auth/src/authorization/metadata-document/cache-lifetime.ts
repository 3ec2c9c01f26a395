/** CM-10: a document is used for at most a day without being fetched again, whatever its headers say. */
export const MAX_CACHE_SECONDS = 24 * 60 * 60;

/**
 * CM-10: a document whose response says nothing about caching (no Cache-Control freshness, no
 * Expires) is kept for an hour: a changed document (a new redirect URL, a removed one) counts
 * within the hour, and an app signing many people in costs its host one request an hour. RFC
 * 9111 §4.2.2 would allow a heuristic; one fixed, documented figure is easier to reason about.
 */
export const DEFAULT_CACHE_SECONDS = 60 * 60;

/** The response headers that decide how long a document is fresh. */
export interface CachingHeaders {
  cacheControl?: string | undefined;
  expires?: string | undefined;
  date?: string | undefined;
  age?: string | undefined;
}

function directives(cacheControl: string): Map<string, string | undefined> {
  const out = new Map<string, string | undefined>();
  for (const part of cacheControl.split(',')) {
    const [name = '', ...rest] = part.split('=');
    const key = name.trim().toLowerCase();
    if (key === '' || out.has(key)) continue;
    out.set(
      key,
      rest.length === 0
        ? undefined
        : rest
            .join('=')
            .trim()
            .replace(/^"(.*)"$/, '$1'),
    );
  }
  return out;
}

const DELTA_SECONDS = /^\d+$/;

/**
 * CM-10: how long, in seconds, a fetched document may be used without fetching it again, as its
 * HTTP caching headers say (RFC 9111 §4.2.1), within 0 and MAX_CACHE_SECONDS: `no-store` or
 * `no-cache`: 0 (fetched again on every authorization request); else `max-age` (0 when not a
 * number); else `Expires`
 * less `Date` (or now), an invalid Expires meaning already stale (§5.3); else the default. A
 * received `Age` is subtracted from the first two.
 */
export function cacheLifetimeSeconds(headers: CachingHeaders, now: number): number {
  const control = directives(headers.cacheControl ?? '');
  if (control.has('no-store') || control.has('no-cache')) return 0;
  const age = DELTA_SECONDS.test(headers.age?.trim() ?? '') ? Number(headers.age) : 0;
  const clamp = (seconds: number) => Math.max(0, Math.min(MAX_CACHE_SECONDS, Math.floor(seconds)));
  if (control.has('max-age')) {
    // A max-age that is not a number of seconds is read as stale (RFC 9111 §4.2.1), not ignored.
    const maxAge = control.get('max-age') ?? '';
    return DELTA_SECONDS.test(maxAge) ? clamp(Number(maxAge) - age) : 0;
  }
  if (headers.expires !== undefined) {
    const expires = Date.parse(headers.expires);
    if (Number.isNaN(expires)) return 0;
    const date = headers.date === undefined ? Number.NaN : Date.parse(headers.date);
    const base = Number.isNaN(date) ? now : date;
    return clamp((expires - base) / 1000 - age);
  }
  return DEFAULT_CACHE_SECONDS;
}
